import { TZDate } from '@date-fns/tz'
import type { Alert, AlertMessage, Town } from '../catalog/types.ts'
import type { AlertKind, AlertLevel } from './alert-words.ts'

// The alerts for machines (issue 48): one OASIS CAP 1.2 message per alert, the format weather
// services, IPAWS and news apps read, and an Atom feed of the alerts. Here are their paths and what
// CAP says of an alert; alert-xml.ts writes them. Every page's banner needs this module, and only the
// feeds need xmlbuilder2, whose loading took a quarter of a second of each build's second thread.

/** CAP's namespace, version 1.2. */
export const capNamespace = 'urn:oasis:names:tc:emergency:cap:1.2'

/** CAP's severity, urgency and certainty for each level. */
export const capLevels: Record<
  AlertLevel,
  { severity: 'Severe' | 'Moderate' | 'Minor'; urgency: 'Immediate' | 'Expected' | 'Future'; certainty: string }
> = {
  emergency: { severity: 'Severe', urgency: 'Immediate', certainty: 'Observed' },
  advisory: { severity: 'Moderate', urgency: 'Expected', certainty: 'Likely' },
  notice: { severity: 'Minor', urgency: 'Future', certainty: 'Likely' },
}

/** CAP's category for each kind (a water system and the power lines are both infrastructure). */
export const capCategories: Record<AlertKind, string> = {
  weather: 'Met',
  water: 'Infra',
  road: 'Transport',
  power: 'Infra',
  fire: 'Fire',
  health: 'Health',
  safety: 'Safety',
  other: 'Other',
}

/** The site's path of an alert's page. */
export const alertPath = (id: string): string => `/alerts/${id}`
/** The site's path of an alert's CAP message. */
export const alertCapPath = (id: string): string => `/alerts/${id}.cap.xml`
/** The site's path of the alerts' Atom feed. */
export const alertsFeedPath = '/alerts.xml'

/**
 * An instant as CAP writes it: the town's wall-clock time with its offset and no fraction,
 * "2027-07-04T21:00:00-05:00" (the schema's pattern allows nothing else, not even "Z").
 */
export function capTime(iso: string, timeZone: string): string {
  return new TZDate(Date.parse(iso), timeZone).toISOString().replace(/\.\d+/, '')
}

/** CAP's sender: the site's host name (no spaces, commas or markup, as CAP asks). */
export function capSender(siteUrl: string | URL): string {
  return new URL(siteUrl).host
}

/** An alert's messages in the order they were sent; an alert with none gets one made of its own row. */
export function alertMessages(alert: Alert): AlertMessage[] {
  const messages = [...alert.messages].sort((a, b) => a.sequence - b.sequence)
  if (messages.length > 0) return messages
  return [{ id: alert.id, sequence: 1, msg_type: 'Alert', all_clear: false, note: null, sent_at: alert.published_at }]
}

/** Where an alert applies, in words: its area, in the town ("Main Street, {town}, {state code} {ZIP}"). */
export function alertAreaDesc(alert: Pick<Alert, 'area'>, town: Pick<Town, 'name' | 'state_code' | 'zip'>): string {
  const place = `${town.name}, ${town.state_code} ${town.zip}`.trim()
  return alert.area ? `${alert.area}, ${place}` : place
}

/** The last time an alert changed for its readers: its last message, else its last edit. */
export function alertUpdatedAt(alert: Alert): string {
  const last = alertMessages(alert).at(-1)!.sent_at
  return Date.parse(last) >= Date.parse(alert.updated_at) ? last : alert.updated_at
}
