import { TZDate } from '@date-fns/tz'
import { z } from 'zod'
import { expandEvents } from '../events/recurrence.ts'
import { callParsed } from '../store/parsed-call.ts'
import type { Store } from '../store/types.ts'
import type { MailConfig } from './config.ts'
import type { DigestContent } from './message.ts'
import { businessesAddedSince, queueDigest } from './outbox.ts'

// The weekly events digest (issue 48): Monday 07:00 in the town's zone, every confirmed `events`
// subscriber gets the coming seven days' events (a series expanded into its dates by the site's
// own recurrence code), the alerts in force and the businesses added that week. The week's
// digest is one row (notify_digests, unique by its Monday), so queueing it twice queues it once.

const dayMs = 86_400_000

/** What public.digest_alerts answers: the published alerts in force, emergencies first. */
const digestAlertsSchema = z
  .array(z.object({ id: z.string(), title: z.string(), level: z.string() }))
  .nullable() satisfies z.ZodType<DigestContent['alerts'] | null>

/** The digest's week: its Monday (YYYY-MM-DD) and when it is due (Monday 07:00 in the town's zone). */
export function digestWeek(now: Date, timeZone: string): { week: string; dueAt: Date } {
  const local = new TZDate(now.getTime(), timeZone)
  const sinceMonday = (local.getDay() + 6) % 7
  const monday = new TZDate(local.getFullYear(), local.getMonth(), local.getDate() - sinceMonday, 7, 0, timeZone)
  const week = `${monday.getFullYear()}-${String(monday.getMonth() + 1).padStart(2, '0')}-${String(monday.getDate()).padStart(2, '0')}`
  return { week, dueAt: new Date(monday.getTime()) }
}

/** When the next digest is due after `now` (a Monday 07:00 in the town's zone). */
export function nextDigestAt(now: Date, timeZone: string): Date {
  const { dueAt } = digestWeek(now, timeZone)
  if (dueAt.getTime() > now.getTime()) return dueAt
  return digestWeek(new Date(dueAt.getTime() + 7 * dayMs + 3_600_000), timeZone).dueAt
}

/** What a digest made now would say, and who would get it. */
export interface DigestPlan {
  week: string
  dueAt: string
  content: DigestContent
  /** The confirmed events subscribers' addresses. */
  recipients: string[]
}

/** Builds the digest as it would go out now: the next seven days from `now`. */
export async function planDigest(
  store: Store,
  config: Pick<MailConfig, 'siteUrl'>,
  now = new Date(),
): Promise<DigestPlan> {
  const catalog = await store.loadCatalog()
  const zone = catalog.town.time_zone
  const { week, dueAt } = digestWeek(now, zone)
  const until = new Date(now.getTime() + 7 * dayMs)
  const events = expandEvents(catalog.events, now, until, zone)
    .filter((event) => Date.parse(event.starts_at) < until.getTime())
    .map((event) => ({
      title: event.title,
      starts_at: event.starts_at,
      location: event.location,
      url: `${config.siteUrl}/events#${event.anchor}`,
      ...(event.is_cancelled ? { cancelled: true } : {}),
    }))
  const [alerts, businesses, recipients] = await Promise.all([
    callParsed(store, 'digest_alerts', {}, digestAlertsSchema),
    businessesAddedSince(store, new Date(now.getTime() - 7 * dayMs).toISOString()),
    callParsed(store, 'digest_recipients', {}, z.array(z.string()).nullable()),
  ])
  return {
    week,
    dueAt: dueAt.toISOString(),
    content: { week, events, alerts: alerts ?? [], businesses },
    recipients: recipients ?? [],
  }
}

/** What queueing the digest came to. */
export interface DigestOutcome {
  week: string
  /** Messages queued (0: the week's digest was queued already, or it is not due yet). */
  queued: number
  due: boolean
}

/** Queues this week's digest when it is due (Monday 07:00 or later in the town's week), once. */
export async function queueWeeklyDigest(
  store: Store,
  config: Pick<MailConfig, 'siteUrl'>,
  now = new Date(),
): Promise<DigestOutcome> {
  const plan = await planDigest(store, config, now)
  if (Date.parse(plan.dueAt) > now.getTime()) return { week: plan.week, queued: 0, due: false }
  return { week: plan.week, queued: await queueDigest(store, plan.week, { ...plan.content }), due: true }
}
