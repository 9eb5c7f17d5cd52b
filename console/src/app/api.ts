import type { ApiErrorBody } from '../shared/api.ts'

/** An API call that failed: the status and the server's message (what and how to fix). */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly status: number
  /** The fields the server refused (a 400), each with what is wrong. */
  readonly issues: NonNullable<ApiErrorBody['issues']>

  constructor(status: number, message: string, issues: ApiErrorBody['issues'] = []) {
    super(message)
    this.status = status
    this.issues = issues
  }
}

type Listener = () => void
const signedOutListeners = new Set<Listener>()

/** Calls back when any call answers 401 (the session ended). */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener)
  return () => signedOutListeners.delete(listener)
}

/** Calls the console API with the session cookie; throws ApiError with the server's message. */
export async function api<T>(
  path: string,
  options: { method?: string; body?: unknown; form?: FormData } = {},
): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      credentials: 'same-origin',
      // A form (a photo upload) sets its own multipart type; everything else is JSON.
      headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
      body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    })
  } catch {
    throw new ApiError(0, 'The console server is not answering: is `pnpm console` still running?')
  }
  const text = await response.text()
  let data: unknown
  try {
    data = text ? JSON.parse(text) : null
  } catch {
    data = null
  }
  if (!response.ok) {
    const body = data as ApiErrorBody | null
    const message = body?.error ?? `Unknown error occurred (HTTP ${response.status})`
    if (response.status === 401 && path !== '/api/session') signedOutListeners.forEach((listener) => listener())
    throw new ApiError(response.status, message, body?.issues ?? [])
  }
  return data as T
}

/** Reads a file the operator chose as base64, for the migration upload. */
export async function fileToBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  const chunk = 0x8000
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk))
  return btoa(binary)
}

/** The message of any error, for toasts and alerts. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Unknown error occurred'
}

/** The first message per field of a refused save, for showing beside each field. */
export function issuesByField(
  issues: ReadonlyArray<{ path: PropertyKey[] | string; message: string }>,
): Record<string, string> {
  const byField: Record<string, string> = {}
  for (const issue of issues) {
    const field = typeof issue.path === 'string' ? issue.path.split('.')[0]! : String(issue.path[0] ?? '')
    byField[field] ??= issue.message
  }
  return byField
}
