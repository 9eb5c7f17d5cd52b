import type { Alert, Catalog, Town } from '@roland/scripts/catalog/types'
import { alertMessages, alertPath } from '@roland/scripts/content/alert-feeds'
import { alertLevelLabels, alertLevels } from '@roland/scripts/content/alert-words'
import { formatTownTime } from '@roland/scripts/content/town-time'

// Town alerts on the site (issue 48): which show in the banner on every page, which /alerts lists,
// and the words of an alert's page. Pure functions of the catalog and the build's time.

/** The most alerts the banner shows; the rest are a link to /alerts. */
export const bannerLimit = 3
/** How far back /alerts and the feed list alerts that are over. */
export const recentDays = 90

/** Whether an alert shows at `now`: published, and not past its end time. */
export function isActive(alert: Pick<Alert, 'status' | 'ends_at'>, now: Date): boolean {
  return alert.status === 'published' && (alert.ends_at === null || Date.parse(alert.ends_at) > now.getTime())
}

/** When an alert stopped showing: its all clear, else its end time (null while it shows). */
export function alertOverAt(alert: Alert, now: Date): string | null {
  if (alert.status === 'ended') return alert.ended_at ?? alert.updated_at
  return isActive(alert, now) ? null : alert.ends_at
}

const newestFirst = (a: Alert, b: Alert) => Date.parse(b.published_at) - Date.parse(a.published_at)
const levelRank = (alert: Alert) => alertLevels.indexOf(alert.level)

/** The showing alerts: emergencies first, then advisories, then notices, each newest first. */
export function activeAlerts(alerts: readonly Alert[], now: Date): Alert[] {
  return alerts.filter((alert) => isActive(alert, now)).sort((a, b) => levelRank(a) - levelRank(b) || newestFirst(a, b))
}

/** What the banner shows: at most three alerts (emergencies first), and how many more there are. */
export function bannerAlerts(alerts: readonly Alert[], now: Date): { shown: Alert[]; more: number } {
  const active = activeAlerts(alerts, now)
  return { shown: active.slice(0, bannerLimit), more: Math.max(0, active.length - bannerLimit) }
}

/** What /alerts and the feed list: the showing alerts, then those over in the last 90 days, newest first. */
export function listedAlerts(alerts: readonly Alert[], now: Date): { active: Alert[]; recent: Alert[] } {
  const since = now.getTime() - recentDays * 86_400_000
  const recent = alerts
    .filter((alert) => {
      const over = alertOverAt(alert, now)
      return over !== null && Date.parse(over) >= since
    })
    .sort((a, b) => Date.parse(alertOverAt(b, now)!) - Date.parse(alertOverAt(a, now)!))
  return { active: activeAlerts(alerts, now), recent }
}

/** The alerts that get a page of their own: every alert /alerts lists. */
export function alertsWithPages(catalog: Pick<Catalog, 'alerts'>, now: Date): Alert[] {
  const { active, recent } = listedAlerts(catalog.alerts, now)
  return [...active, ...recent]
}

/** The banner's data, for the pages' cacheKeys: what it shows changes every page. */
export function bannerCacheData(catalog: Pick<Catalog, 'alerts'>, now: Date): unknown {
  const { shown, more } = bannerAlerts(catalog.alerts, now)
  return [shown.map((alert) => [alert.id, alert.level, alert.title]), more]
}

/** An alert's level in words: "Emergency". */
export const levelWords = (alert: Pick<Alert, 'level'>): string => alertLevelLabels[alert.level]

/** An alert's page. */
export const alertHref = (alert: Pick<Alert, 'id'>): string => alertPath(alert.id)

/** One note of an alert's page: "Updated Tue, Dec 1, 2026, 7:15 AM", or the all clear with its message. */
export interface AlertNote {
  kind: 'updated' | 'all-clear'
  at: string
  when: string
  note: string | null
}

/** The "Updated" and "All clear" notes of an alert's page, oldest first, times in the town's zone. */
export function alertNotes(alert: Alert, town: Pick<Town, 'time_zone'>): AlertNote[] {
  return alertMessages(alert)
    .filter((message) => message.msg_type === 'Update')
    .map((message) => ({
      kind: message.all_clear ? ('all-clear' as const) : ('updated' as const),
      at: message.sent_at,
      when: formatTownTime(message.sent_at, town.time_zone),
      note: message.note,
    }))
}

/** A SpecialAnnouncement (schema.org) for an alert's page. */
export function specialAnnouncementJsonLd(alert: Alert, pageUrl: string, town: Town): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'SpecialAnnouncement',
    name: alert.title,
    text: alert.body || alert.title,
    url: pageUrl,
    datePosted: alert.published_at,
    ...(alert.status === 'ended' && alert.ended_at
      ? { expires: alert.ended_at }
      : alert.ends_at
        ? { expires: alert.ends_at }
        : {}),
    spatialCoverage: { '@type': 'City', name: `${town.name}, ${town.state}` },
    announcementLocation: alert.area ? { '@type': 'Place', name: alert.area } : undefined,
  }
}
