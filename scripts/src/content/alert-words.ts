// The values and words of a town alert (issue 48), in one place for the console, the site's banner,
// the feeds and the CLI. No imports: the site and its catalog types read these without the
// content schemas' dependencies.

/** An alert's levels, most urgent first: the banner shows emergencies first. */
export const alertLevels = ['emergency', 'advisory', 'notice'] as const
export type AlertLevel = (typeof alertLevels)[number]

/** What an alert is about. */
export const alertKinds = ['weather', 'water', 'road', 'power', 'fire', 'health', 'safety', 'other'] as const
export type AlertKind = (typeof alertKinds)[number]

/** Where an alert stands: a draft is on no page; published shows; ended was given its all clear. */
export const alertStatuses = ['draft', 'published', 'ended'] as const
export type AlertStatus = (typeof alertStatuses)[number]

/** A level in words, as the banner and the console say it (never by colour alone). */
export const alertLevelLabels: Record<AlertLevel, string> = {
  emergency: 'Emergency',
  advisory: 'Advisory',
  notice: 'Notice',
}

/** A kind in words. */
export const alertKindLabels: Record<AlertKind, string> = {
  weather: 'Weather',
  water: 'Water',
  road: 'Road',
  power: 'Power',
  fire: 'Fire',
  health: 'Health',
  safety: 'Safety',
  other: 'Other',
}

/** Whether an alert shows on the site at `now` (epoch ms): published, and not past its end time. */
export function isAlertActive(alert: { status: string; ends_at: string | null }, now = Date.now()): boolean {
  return alert.status === 'published' && (alert.ends_at === null || Date.parse(alert.ends_at) > now)
}
