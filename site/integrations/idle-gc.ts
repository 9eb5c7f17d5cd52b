// The garbage of a build's process is collected while it waits on standby for its next build
// (build-server.ts): once the last build's index is held, and again once the next catalog, handed
// ahead, is read and the index updated from it (catalog-read.ts): that build then starts with V8's
// whole allocation budget. At 100,000 businesses a rebuild grows a heap of about 550 MB by 200 MB,
// and a full collection in its middle took 0.4-0.5 s of it. (Collected before the catalog ahead
// was read, as it was while that read took a second, the index's update ahead then brought the
// collection back into the build.) The process is started with --expose-gc (buildLaunch); without
// it, nothing is collected here.

let building = false

/** Says whether a build runs now: garbage is collected only between builds. */
export function buildRunning(running: boolean): void {
  building = running
}

/** Collects all garbage now (for a few tenths of a second at 100,000 businesses), unless a build runs. */
export function collectWhileIdle(): void {
  if (!building) (globalThis as { gc?: () => void }).gc?.()
}
