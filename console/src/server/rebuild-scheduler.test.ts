import { describe, expect, test } from 'vitest'
import { RebuildScheduler, type RebuildTrigger } from './rebuild-scheduler.ts'

/** A scheduler whose rebuilds finish when the test says so. */
function scheduler(debounceMs = 0) {
  const runs: RebuildTrigger[] = []
  const finishers: Array<() => void> = []
  const rebuilds = new RebuildScheduler({
    debounceMs,
    run: (trigger) => {
      runs.push(trigger)
      return new Promise<void>((resolve) => finishers.push(resolve))
    },
  })
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return { rebuilds, runs, finish: () => finishers.shift()?.(), until }
}

describe('RebuildScheduler', () => {
  test('waits for every running data-changing job, then rebuilds once for all of them', async () => {
    const { rebuilds, runs, finish, until } = scheduler()
    rebuilds.hold()
    rebuilds.hold()
    rebuilds.release({ changedData: true, jobId: 'a' })
    expect(rebuilds.state).toEqual({ pending: true, running: false, waitingFor: 1, unpublishedEdits: 0 })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(runs).toHaveLength(0)
    rebuilds.release({ changedData: true, jobId: 'b' })
    await until(() => runs.length === 1)
    expect(runs[0]).toEqual({ trigger: 'jobs', jobs: ['a', 'b'] })
    expect(rebuilds.state).toEqual({ pending: false, running: true, waitingFor: 0, unpublishedEdits: 0 })
    finish()
    await rebuilds.idle()
    expect(runs).toHaveLength(1)
    rebuilds.close()
  })

  test('does not rebuild for jobs that changed nothing', () => {
    const { rebuilds } = scheduler()
    rebuilds.hold()
    rebuilds.release({ changedData: false })
    expect(rebuilds.state).toEqual({ pending: false, running: false, waitingFor: 0, unpublishedEdits: 0 })
    rebuilds.close()
  })

  test('changes made during a rebuild cause exactly one more rebuild after it', async () => {
    const { rebuilds, runs, finish, until } = scheduler()
    rebuilds.hold()
    rebuilds.release({ changedData: true, jobId: 'a' })
    await until(() => runs.length === 1)
    for (const id of ['b', 'c', 'd']) {
      rebuilds.hold()
      rebuilds.release({ changedData: true, jobId: id })
    }
    expect(runs).toHaveLength(1)
    finish()
    await until(() => runs.length === 2)
    expect(runs[1]).toEqual({ trigger: 'jobs', jobs: ['b', 'c', 'd'] })
    finish()
    await rebuilds.idle()
    expect(runs).toHaveLength(2)
    rebuilds.close()
  })

  test('Rebuild site starts at once without waiting for the debounce window, or queues one after the running rebuild', async () => {
    const { rebuilds, runs, finish, until } = scheduler(60_000)
    expect(rebuilds.requestNow()).toBe('started')
    await until(() => runs.length === 1)
    expect(runs[0]).toEqual({ trigger: 'manual', jobs: [] })
    expect(rebuilds.requestNow()).toBe('queued')
    finish()
    await until(() => runs.length === 2)
    finish()
    await rebuilds.idle()
    rebuilds.close()
  })

  test('a failed rebuild does not stop later ones', async () => {
    let calls = 0
    const rebuilds = new RebuildScheduler({
      debounceMs: 0,
      run: async () => {
        calls++
        if (calls === 1) throw new Error('The site build failed')
      },
    })
    rebuilds.requestNow()
    while (calls < 1) await new Promise((resolve) => setTimeout(resolve, 5))
    await rebuilds.idle()
    rebuilds.requestNow()
    while (calls < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    await rebuilds.idle()
    expect(rebuilds.state.running).toBe(false)
    rebuilds.close()
  })
})

describe('edits saved in the console', () => {
  test('are counted until a rebuild starts, which publishes them', async () => {
    const { rebuilds, finish, until } = scheduler()
    rebuilds.noteEdit()
    rebuilds.noteEdit()
    expect(rebuilds.state.unpublishedEdits).toBe(2)
    rebuilds.requestNow()
    await until(() => rebuilds.state.running)
    expect(rebuilds.state.unpublishedEdits).toBe(0)
    rebuilds.noteEdit()
    expect(rebuilds.state.unpublishedEdits).toBe(1)
    finish()
    await rebuilds.idle()
    rebuilds.close()
  })
})

describe('the next rebuild’s preparation', () => {
  test('starts once data changed or an edit was saved, one at a time, and the scheduler’s idle waits for it', async () => {
    const preparations: Array<() => void> = []
    const runs: RebuildTrigger[] = []
    const rebuilds = new RebuildScheduler({
      debounceMs: 60_000,
      run: async (trigger) => {
        runs.push(trigger)
      },
      prepare: () => new Promise<void>((resolve) => preparations.push(resolve)),
    })
    rebuilds.hold()
    rebuilds.release({ changedData: false })
    expect(preparations).toHaveLength(0)
    rebuilds.noteEdit()
    expect(preparations).toHaveLength(1)
    // One under way: a change meanwhile starts no other.
    rebuilds.hold()
    rebuilds.release({ changedData: true, jobId: 'a' })
    expect(preparations).toHaveLength(1)
    let idle = false
    const waiting = rebuilds.idle().then(() => (idle = true))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(idle).toBe(false)
    preparations[0]!()
    await waiting
    // Ready, it is asked again at the next change (it may have nothing left to do).
    rebuilds.hold()
    rebuilds.release({ changedData: true, jobId: 'b' })
    expect(preparations).toHaveLength(2)
    preparations[1]!()
    // The rebuild itself never waited for any: the window is a minute.
    expect(runs).toHaveLength(0)
    rebuilds.close()
    rebuilds.noteEdit()
    expect(preparations).toHaveLength(2)
  })

  test('an urgent request (an alert) rebuilds at once, without waiting for the window or a running job', async () => {
    const { rebuilds, runs, finish, until } = scheduler(60_000)
    rebuilds.hold()
    rebuilds.noteEdit()
    expect(rebuilds.requestUrgent()).toBe('started')
    await until(() => runs.length === 1)
    expect(rebuilds.state).toMatchObject({ running: true, waitingFor: 1 })
    // Another alert while it runs: one more rebuild right after, still ahead of the running job.
    expect(rebuilds.requestUrgent()).toBe('queued')
    finish()
    await until(() => runs.length === 2)
    finish()
    await rebuilds.idle()
    // The job that was running ends: its own rebuild waits for the window, as before.
    rebuilds.release({ changedData: true, jobId: 'import' })
    expect(rebuilds.state).toMatchObject({ pending: true, running: false })
    expect(runs).toHaveLength(2)
    rebuilds.close()
  })
})
