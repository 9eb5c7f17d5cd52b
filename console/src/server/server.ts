import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { isProcessAlive } from '@roland/scripts/lock-file'
import { loadSampleData } from '@roland/scripts/migrate/sample'
import { openLeasedStore } from '@roland/scripts/store/leased'
import { closeBuildStandby } from '@roland/scripts/rebuild/astro-build'
import { holdStoreForRebuild, prepareRebuild, runRebuild } from '@roland/scripts/rebuild/rebuild'
import { openStore } from '@roland/scripts/store/index'
import { operatorSessions } from '@roland/scripts/operators/directory'
import { automationActor, type Actor } from '@roland/scripts/operators/schema'
import {
  bearerToken,
  defaultSignInLimits,
  parseCookies,
  secretMatches,
  sessionCookieName,
  SignInLimiter,
  type SignInLimits,
} from './auth.ts'
import { distDir } from './build-app.ts'
import { startCheckJob } from './check-jobs.ts'
import { ConsoleBackups } from './backup-schedule.ts'
import { CheckSchedule } from './check-schedule.ts'
import { ConsoleFeeds } from './feeds-schedule.ts'
import type { ConsoleConfig } from './config.ts'
import type { ConsoleServices, Route, RouteContext } from './context.ts'
import { EventHub } from './events.ts'
import { alwaysDue, lockFileSignal } from './foreign-changes.ts'
import { HttpError, securityHeaders, sendError } from './http.ts'
import { consoleStarter, ConsoleJobs } from './jobs.ts'
import { consoleOrigins, crossSiteReason, isHttps } from './origin.ts'
import { RebuildScheduler } from './rebuild-scheduler.ts'
import { AlertTimer } from './alert-timer.ts'
import { ConsoleNotify } from './notify-schedule.ts'
import { handlePublicNotify, isPublicNotifyPath } from './public-notify.ts'
import { notifyRoutes } from './routes/notify.ts'
import { alertRoutes } from './routes/alerts.ts'
import { attentionRoutes } from './routes/attention.ts'
import { backupRoutes } from './routes/backup.ts'
import { feedRoutes } from './routes/feeds.ts'
import { businessRoutes } from './routes/businesses.ts'
import { contentRoutes } from './routes/content.ts'
import { crawlerRoutes } from './routes/crawler.ts'
import { jobRoutes } from './routes/jobs.ts'
import { migrationRoutes } from './routes/migration.ts'
import { operatorRoutes } from './routes/operators.ts'
import { rebuildRoutes, rebuildState } from './routes/rebuild.ts'
import { refuseWhileLockedOut, sessionRoutes } from './routes/session.ts'
import { FirecrawlKeyStore } from './secrets.ts'
import { resolveInside, sendApp, sendFile } from './static.ts'
import { handlePublicSubmission, publicSubmissionsPath } from './public-submissions.ts'
import { SubmissionWebhook } from './submission-webhook.ts'
import { SubmissionWatch } from './submission-watch.ts'
import { submissionRoutes } from './routes/submissions.ts'

/** Every API route. */
export const routes: Route[] = [
  ...sessionRoutes,
  ...jobRoutes,
  ...migrationRoutes,
  ...crawlerRoutes,
  ...contentRoutes,
  ...submissionRoutes,
  ...businessRoutes,
  ...attentionRoutes,
  ...rebuildRoutes,
  ...operatorRoutes,
  ...backupRoutes,
  ...feedRoutes,
  ...alertRoutes,
  ...notifyRoutes,
]

/** Options of a console server. */
export interface ConsoleServerOptions {
  config: ConsoleConfig
  /** Serve the built app from console/dist (default true); API tests need only the API. */
  serveApp?: boolean
  /** How wrong secrets and passwords are slowed down per client (tests make it quick). */
  signInLimits?: SignInLimits
  /** How wrong passwords are slowed down per account (default as per client). */
  accountLimits?: SignInLimits
  /** How long the database stays open after the last call (default 250 ms). */
  storeIdleMs?: number
  /** The waits before each retry of the submissions webhook (tests make them short). */
  webhookRetryDelaysMs?: number[]
  /** On Supabase with a webhook: how often new submissions are looked for (default a minute). */
  submissionWatchMs?: number
}

/** A running console. */
export interface ConsoleServer {
  url: string
  port: number
  services: ConsoleServices
  close(): Promise<void>
}

/** Starts the console: the API, the live updates, the rebuild scheduler and the app, on 127.0.0.1. */
export async function startConsoleServer(options: ConsoleServerOptions): Promise<ConsoleServer> {
  const { config } = options
  const store = await openLeasedStore(() => openStore({ env: config.env, onCreate: loadSampleData }), {
    idleMs: options.storeIdleMs ?? 250,
  })
  const shutdown = new AbortController()
  // Circular by nature: jobs feed the scheduler, the scheduler runs a rebuild job.
  const services = { config, store } as ConsoleServices
  services.keys = new FirecrawlKeyStore(config.dataDir, config.env)
  services.limiter = new SignInLimiter(options.signInLimits)
  services.accountLimits = options.accountLimits ?? options.signInLimits ?? defaultSignInLimits
  const webhookUrl = config.submissions.webhookUrl
  services.submissionWebhook = webhookUrl ? new SubmissionWebhook(webhookUrl, options.webhookRetryDelaysMs) : null
  services.hub = new EventHub({ onClientsChange: (count) => services.jobs.watch(count) })
  const rebuilds = {
    store,
    env: config.env,
    signal: shutdown.signal,
    // The next rebuild's process waits ready, with Astro loaded (build-process.ts), unless turned off.
    standby: config.rebuildStandby,
  }
  services.scheduler = new RebuildScheduler({
    debounceMs: config.rebuildDebounceMs,
    run: (trigger) =>
      services.jobs.start(
        (onEvent) =>
          runRebuild({
            ...rebuilds,
            trigger: trigger.trigger,
            jobs: trigger.jobs,
            startedBy: consoleStarter(),
            onEvent,
          }),
        { mayChangeData: false },
      ).done,
    // Its build's process and the catalog's read get ready while the scheduler waits to run it,
    // and the database stays open for the rebuild's own read, unless the wait is long.
    prepare: async () => {
      await prepareRebuild(rebuilds)
      holdStoreForRebuild(store, config.rebuildDebounceMs)
    },
    onChange: () => services.hub.send('rebuild', rebuildState(services)),
  })
  services.jobs = new ConsoleJobs({
    store,
    hub: services.hub,
    scheduler: services.scheduler,
    pollMs: config.pollMs,
    // Besides after another process's hold, the history is re-read about every ten seconds.
    changes:
      store.kind === 'embedded'
        ? lockFileSignal(config.dataDir, process.pid, Math.ceil(10_000 / Math.max(config.pollMs, 1)))
        : alwaysDue(),
  })
  await services.jobs.recover(isProcessAlive)
  services.checkSchedule = new CheckSchedule({
    everyMs: config.checkEveryMs,
    lastCheck: async () => (await services.jobs.list(200)).find((job) => job.kind === 'check') ?? null,
    run: async () => (await startCheckJob(services)).done,
  })
  await services.checkSchedule.start()
  services.backups = new ConsoleBackups({ store, dir: config.backupDir, everyMs: config.backupEveryMs })
  await services.backups.start()
  services.feeds = new ConsoleFeeds({
    store,
    scheduler: services.scheduler,
    everyMs: config.feedsEveryMs,
    allowPrivateNetwork: config.allowPrivateNetwork,
  })
  await services.feeds.start()
  services.alertTimer = new AlertTimer({ store, scheduler: services.scheduler })
  // A store that cannot be read now is read again at the timer's next look.
  await services.alertTimer.plan().catch(() => {})

  services.notify = new ConsoleNotify({
    store,
    mail: config.mail,
    pollMs: config.notifyPollMs,
    // The one-click unsubscribe link: PUBLIC_NOTIFY_URL's origin, else the console's public address, else its own.
    apiBase: () => config.publicUrl?.origin ?? services.consoleUrl,
  })

  const server = createServer((req, res) => {
    void handle(req, res, services, options.serveApp ?? true).catch((error: unknown) => sendError(res, error))
  })
  // An idle connection stays open longer than a client or a proxy keeps it (Node's default is 5 s).
  // A server that closes first races the client's next request on that socket, and the client
  // sees "other side closed" for a request the console never read: with the embedded store's
  // queries holding the event loop, the flood test met it on a loaded CI machine.
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  services.origins = consoleOrigins(port, config.publicUrl)
  services.consoleUrl = `http://${config.host}:${port}`
  services.notify.start()
  const watch =
    store.kind === 'supabase' && services.submissionWebhook
      ? new SubmissionWatch(services, options.submissionWatchMs)
      : null
  return {
    url: `http://${config.host}:${port}`,
    port,
    services,
    close: () => {
      watch?.close()
      return closeAll(server, services, shutdown)
    },
  }
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  services: ConsoleServices,
  serveApp: boolean,
): Promise<void> {
  const { origins } = services
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const isApi = url.pathname === '/api' || url.pathname.startsWith('/api/')
  const isFile = url.pathname.startsWith('/files/')
  const host = req.headers.host?.toLowerCase()
  if (!host || !origins.byHost.has(host)) {
    throw new HttpError(421, crossSiteReason(req.headers, origins) ?? 'Unknown host')
  }
  // The one route a visitor's browser calls, from the site: its own CORS rules, no credentials.
  if (url.pathname === publicSubmissionsPath) {
    await handlePublicSubmission(req, res, services)
    return
  }
  if (isPublicNotifyPath(url.pathname)) {
    await handlePublicNotify(req, res, services)
    return
  }
  if (isApi || isFile) {
    const reason = crossSiteReason(req.headers, origins)
    if (reason) throw new HttpError(403, reason)
  }
  if (!isApi && !isFile) {
    if (!serveApp) throw new HttpError(404, 'This console serves only its API.')
    if (req.method !== 'GET' && req.method !== 'HEAD')
      throw new HttpError(405, 'The app is read with GET.', { headers: { allow: 'GET, HEAD' } })
    await sendApp(res, distDir, url.pathname, req.headers['accept-encoding'])
    return
  }

  const client = req.socket.remoteAddress ?? 'unknown'
  const sessionToken = parseCookies(req.headers.cookie).get(sessionCookieName)
  const { route, params, allowed } = match(req.method ?? 'GET', url.pathname)
  const actor = route?.public ? nobody : await authenticate(req, services, client, sessionToken)
  if (route?.adminOnly && actor.role !== 'admin') {
    throw new HttpError(403, `Only an admin may do this; ${actor.email} is an editor. Ask an admin.`)
  }
  if (isFile) {
    await sendStorageFile(res, services, url.pathname)
    return
  }
  if (!route) {
    if (allowed.length)
      throw new HttpError(405, `Use ${allowed.join(' or ')} for ${url.pathname}.`, {
        headers: { allow: allowed.join(', ') },
      })
    throw new HttpError(404, `No API route ${req.method} ${url.pathname}: see console/README.md for the routes.`)
  }
  const secure = isHttps(req.headers, origins)
  const context: RouteContext = { req, res, url, params, services, sessionToken, client, actor, secure }
  await route.handler(context)
}

function match(
  method: string,
  pathname: string,
): { route: Route | undefined; params: Record<string, string>; allowed: string[] } {
  const allowed: string[] = []
  for (const route of routes) {
    const found = route.path.exec(pathname)
    if (!found) continue
    if (route.method === method) return { route, params: { ...found.groups }, allowed }
    allowed.push(route.method)
  }
  return { route: undefined, params: {}, allowed }
}

// The public sign-in route acts for nobody yet.
const nobody: Actor = { email: 'anonymous', role: 'editor' }

/**
 * Says who calls: the operator of a live session cookie, or the admin "automation" for the
 * automation token (CONSOLE_TOKEN) as a bearer token; 401 otherwise. A wrong bearer token counts
 * as a wrong sign-in of the client.
 */
async function authenticate(
  req: IncomingMessage,
  services: ConsoleServices,
  client: string,
  sessionToken: string | undefined,
): Promise<Actor> {
  const bearer = bearerToken(req.headers.authorization)
  if (bearer !== null) {
    refuseWhileLockedOut(services.limiter.retryAfterMs(client))
    const secret = services.config.secret
    if (secret !== null && secretMatches(bearer, secret)) {
      services.limiter.succeed(client)
      return automationActor
    }
    services.limiter.fail(client)
    throw unauthorized(
      secret === null
        ? 'This console takes no bearer token: set CONSOLE_TOKEN in .env to let scripts in, or sign in.'
        : 'The bearer token is not the console’s CONSOLE_TOKEN.',
    )
  }
  if (sessionToken) {
    const operator = await services.store.use((store) => operatorSessions(store).operatorOf(sessionToken))
    if (operator) return { email: operator.email, role: operator.role, id: operator.id }
  }
  throw unauthorized(
    sessionToken
      ? 'Your session has ended: sign in again.'
      : 'Sign in first (POST /api/session), or send Authorization: Bearer <CONSOLE_TOKEN>.',
  )
}

function unauthorized(message: string): HttpError {
  return new HttpError(401, message, { headers: { 'www-authenticate': 'Bearer realm="roland-console"' } })
}

// The embedded store's public image URLs are /files/<path>; the files sit in the data folder.
// Read straight from there: opening the database for each image would keep it busy for nothing.
async function sendStorageFile(res: ServerResponse, services: ConsoleServices, pathname: string): Promise<void> {
  const root = path.join(services.config.dataDir, 'storage', 'files')
  const file = services.store.kind === 'embedded' ? resolveInside(root, pathname.slice('/files/'.length)) : null
  if (await sendFile(res, file)) return
  res.writeHead(404, { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8' })
  res.end('No such file in storage')
}

async function closeAll(server: Server, services: ConsoleServices, shutdown: AbortController): Promise<void> {
  services.checkSchedule.close()
  services.backups.close()
  services.feeds.close()
  services.alertTimer.close()
  services.notify.close()
  services.scheduler.close()
  services.jobs.close()
  services.hub.close()
  services.submissionWebhook?.close()
  shutdown.abort()
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await services.scheduler.idle()
  await services.jobs.idle()
  await services.backups.idle()
  await services.feeds.idle()
  await services.alertTimer.idle()
  await services.notify.idle()
  await closeBuildStandby()
  await services.submissionWebhook?.idle()
  await services.store.close()
}
