import { useCallback, useEffect, useRef, useState } from 'react'
import type { Job, MigrationRequest, MigrationStatusView, MigrationSummaryView } from '../../shared/api.ts'
import { api, errorMessage, fileToBase64 } from '../api.ts'
import { useToast } from '../components/Toaster.tsx'
import { Alert, Badge, Button, Card, Progress } from '../components/ui.tsx'
import { isActive, percentOf, useLive } from '../live.tsx'

interface MigrationJobResult {
  businessCount: number
  summary: MigrationSummaryView['summary']
}

/** SPEC §2 'Database Migration': status, the three steps, preview, start or re-run, progress, result. */
export function Migration() {
  const toast = useToast()
  const live = useLive()
  const [status, setStatus] = useState<MigrationStatusView | null>(null)
  const [sourceKind, setSourceKind] = useState<'bucket' | 'upload'>('bucket')
  const [file, setFile] = useState<File | null>(null)
  const [reset, setReset] = useState(false)
  const [overwriteEdits, setOverwriteEdits] = useState(false)
  const [preview, setPreview] = useState<MigrationSummaryView | null>(null)
  const [previewing, setPreviewing] = useState(false)
  const [starting, setStarting] = useState(false)
  const [jobId, setJobId] = useState<string | null>(null)
  const job = jobId ? live.byId.get(jobId) : undefined
  const otherRunning = live.jobs.some((j) => j.kind === 'migrate' && isActive(j) && j.id !== jobId)
  const migrating = starting || isActive(job) || otherRunning
  const complete = status?.isComplete ?? false

  const checkStatus = useCallback(
    () =>
      api<MigrationStatusView>('/api/migration').then(setStatus, (error: unknown) => toast.error(errorMessage(error))),
    [toast],
  )

  useEffect(() => {
    void checkStatus()
  }, [checkStatus])

  // When the job ends: a toast, and (SPEC §4) success re-checks the status.
  const announced = useRef<string | null>(null)
  useEffect(() => {
    if (!job || isActive(job) || announced.current === job.id) return
    announced.current = job.id
    if (job.status === 'succeeded') {
      const result = job.result as MigrationJobResult
      toast.success(`Migration completed successfully! ${result.businessCount} businesses in the database.`)
      void checkStatus()
    } else {
      toast.error(`Migration failed: ${job.error ?? 'Unknown error occurred'}`)
    }
  }, [job, toast, checkStatus])

  async function request(): Promise<MigrationRequest | null> {
    if (sourceKind === 'bucket') return { source: { kind: 'bucket' }, reset, overwriteEdits }
    if (!file) {
      toast.error('Choose a Roland.txt file to upload, or use the one in the files bucket.')
      return null
    }
    return {
      source: { kind: 'upload', name: file.name, base64: await fileToBase64(file) },
      reset,
      overwriteEdits,
    }
  }

  async function runPreview() {
    const body = await request()
    if (!body) return
    setPreviewing(true)
    try {
      setPreview(await api<MigrationSummaryView>('/api/migration/preview', { method: 'POST', body }))
    } catch (error) {
      setPreview(null)
      toast.error(errorMessage(error))
    } finally {
      setPreviewing(false)
    }
  }

  async function start() {
    const body = await request()
    if (!body) return
    setStarting(true)
    try {
      const { job: started } = await api<{ job: Job }>('/api/migration', { method: 'POST', body })
      live.add(started)
      setJobId(started.id)
    } catch (error) {
      toast.error(`Migration failed: ${errorMessage(error)}`)
    } finally {
      setStarting(false)
    }
  }

  const startLabel = migrating ? 'Migrating...' : complete ? 'Migration Complete' : 'Start Migration'
  const result = job?.status === 'succeeded' ? (job.result as MigrationJobResult) : null

  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight">Database Migration</h1>
        <p className="mt-1 text-sm text-slate-600">Load the business list (Roland.txt) into the database.</p>
      </header>

      <Card title="Migration status">
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-sm font-medium">Status:</span>
          {status ? (
            <Badge tone={complete ? 'success' : 'pending'}>{complete ? 'Complete' : 'Pending'}</Badge>
          ) : (
            <Badge>Checking...</Badge>
          )}
          <span className="text-sm text-slate-700" data-testid="business-count">
            {status ? `${status.businessCount} businesses in the database` : ''}
          </span>
        </div>
      </Card>

      <Card title="What the migration does">
        <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
          <li>Download Roland.txt from the files bucket (or take the file you upload).</li>
          <li>Parse each business: name, phone, website, address, hours, description and services.</li>
          <li>
            Import them into the database in one transaction: new businesses are added, existing ones updated by slug,
            and ones no longer listed deactivated.
          </li>
        </ol>
      </Card>

      <Card title="Source" description="Preview shows what would change before anything is imported.">
        <fieldset className="flex flex-col gap-3 text-sm">
          <legend className="sr-only">Where Roland.txt comes from</legend>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="source"
              checked={sourceKind === 'bucket'}
              onChange={() => {
                setSourceKind('bucket')
                setPreview(null)
              }}
            />
            Roland.txt in the files bucket{' '}
            {status && !status.bucketHasFile ? <Badge tone="error">missing</Badge> : null}
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="source"
              checked={sourceKind === 'upload'}
              onChange={() => {
                setSourceKind('upload')
                setPreview(null)
              }}
            />
            Upload a Roland.txt
          </label>
          {sourceKind === 'upload' ? (
            <div className="pl-6">
              <label htmlFor="roland-file" className="sr-only">
                Roland.txt file
              </label>
              <input
                id="roland-file"
                type="file"
                accept=".txt,text/plain"
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null)
                  setPreview(null)
                }}
                className="text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm"
              />
            </div>
          ) : null}
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={reset}
              onChange={(event) => {
                setReset(event.target.checked)
                setPreview(null)
              }}
            />
            Clear and reload: delete every business first (still in one transaction)
          </label>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={overwriteEdits}
              onChange={(event) => {
                setOverwriteEdits(event.target.checked)
                setPreview(null)
              }}
            />
            Overwrite edits: replace fields edited in the console with the file&apos;s values
          </label>
        </fieldset>
        <div className="mt-4 flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => void runPreview()} disabled={previewing || migrating}>
            {previewing ? 'Previewing...' : 'Preview changes'}
          </Button>
          <Button onClick={() => void start()} disabled={migrating || complete}>
            {startLabel}
          </Button>
          {complete ? (
            <Button variant="secondary" onClick={() => void start()} disabled={migrating}>
              Re-run Migration
            </Button>
          ) : null}
        </div>
        {preview ? <PreviewPanel preview={preview} /> : null}
      </Card>

      {job || migrating ? (
        <Card title="Progress">
          <Progress value={percentOf(job)} label="Migration progress" />
          <p className="mt-2 text-xs text-slate-500">
            {job ? `${job.progress.phase} (${job.progress.done}/${job.progress.total})` : 'Starting...'}
          </p>
        </Card>
      ) : null}

      {job?.status === 'succeeded' && result ? (
        <Alert tone="success" title="Migration completed successfully!" testId="migration-result">
          {result.businessCount} businesses in the database (added {result.summary.added}, updated{' '}
          {result.summary.updated}, unchanged {result.summary.unchanged}, deactivated {result.summary.deactivated}).
        </Alert>
      ) : null}
      {job?.status === 'failed' || job?.status === 'interrupted' ? (
        <Alert
          tone="error"
          title={job.status === 'failed' ? 'Migration failed:' : 'Migration interrupted:'}
          testId="migration-result"
        >
          {job.error}
        </Alert>
      ) : null}
    </div>
  )
}

function PreviewPanel({ preview }: { preview: MigrationSummaryView }) {
  const warned = preview.businesses.filter((b) => b.warnings.length > 0)
  const { added, updated, unchanged, deactivated } = preview.summary
  return (
    <div className="mt-5 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm" data-testid="migration-preview">
      <p className="font-semibold">Dry run: nothing was changed.</p>
      <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
        {(
          [
            ['Added', added],
            ['Updated', updated],
            ['Unchanged', unchanged],
            ['Deactivated', deactivated],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-md bg-white p-2 text-center shadow-xs">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="text-lg font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      {preview.businesses.some((b) => b.status !== 'unchanged') ? (
        <ul className="mt-3 space-y-0.5">
          {preview.businesses
            .filter((b) => b.status !== 'unchanged')
            .map((b) => (
              <li key={b.slug}>
                <Badge tone={b.status === 'added' ? 'success' : 'info'}>{b.status}</Badge> {b.name}
              </li>
            ))}
        </ul>
      ) : null}
      {preview.deactivated.length ? <p className="mt-3">Would deactivate: {preview.deactivated.join(', ')}</p> : null}
      {preview.conflicts.length ? (
        <div className="mt-3" data-testid="migration-conflicts">
          <p className="font-medium">
            Edited in the console, different in the file (
            {preview.overwriteEdits ? 'the file’s value would replace the edit' : 'the edit would be kept'}):
          </p>
          <ul className="mt-1 list-disc pl-5">
            {preview.conflicts.map((c) => (
              <li key={`${c.slug}-${c.field}`}>
                {c.name}: {c.field}: edited {JSON.stringify(c.current)}, file {JSON.stringify(c.incoming)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {warned.length ? (
        <div className="mt-3">
          <p className="font-medium">Warnings</p>
          <ul className="mt-1 list-disc pl-5 text-amber-900">
            {warned.flatMap((b) =>
              b.warnings.map((warning, i) => (
                <li key={`${b.slug}-${i}`}>
                  {b.name}: {warning}
                </li>
              )),
            )}
          </ul>
        </div>
      ) : null}
    </div>
  )
}
