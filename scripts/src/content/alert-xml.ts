import { create } from 'xmlbuilder2'
import type { Alert, Town } from '../catalog/types.ts'
import {
  alertAreaDesc,
  alertCapPath,
  alertMessages,
  alertPath,
  alertsFeedPath,
  alertUpdatedAt,
  capCategories,
  capLevels,
  capNamespace,
  capSender,
  capTime,
} from './alert-feeds.ts'
import { alertKindLabels, alertLevelLabels } from './alert-words.ts'

// The alerts' CAP messages and Atom feed (alert-feeds.ts says what goes in them), written with
// xmlbuilder2, which escapes every text and attribute, never by putting strings together.
// test/site/alerts.test.ts checks the CAP files against OASIS's schema with xmllint.

const atomNamespace = 'http://www.w3.org/2005/Atom'

/**
 * The CAP 1.2 message of an alert as it stands: msgType Alert when it was first published, Update
 * after (its `references` naming every earlier message), responseType AllClear once ended.
 */
export function capMessage(alert: Alert, town: Town, siteUrl: string | URL): string {
  const sender = capSender(siteUrl)
  const zone = town.time_zone
  const messages = alertMessages(alert)
  const latest = messages.at(-1)!
  const level = capLevels[alert.level]
  const expires = alert.status === 'ended' && alert.ended_at ? alert.ended_at : alert.ends_at
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(capNamespace, 'alert')
  const add = (parent: typeof root, name: string, text: string) => parent.ele(capNamespace, name).txt(text).up()
  add(root, 'identifier', latest.id)
  add(root, 'sender', sender)
  add(root, 'sent', capTime(latest.sent_at, zone))
  add(root, 'status', 'Actual')
  add(root, 'msgType', latest.msg_type)
  add(root, 'scope', 'Public')
  if (latest.note) add(root, 'note', latest.note)
  const earlier = messages.slice(0, -1)
  if (earlier.length > 0) {
    add(root, 'references', earlier.map((m) => `${sender},${m.id},${capTime(m.sent_at, zone)}`).join(' '))
  }
  const info = root.ele(capNamespace, 'info')
  add(info, 'language', 'en-US')
  add(info, 'category', capCategories[alert.kind])
  add(info, 'event', `${alertKindLabels[alert.kind]} ${alertLevelLabels[alert.level].toLowerCase()}`)
  if (alert.status === 'ended') add(info, 'responseType', 'AllClear')
  add(info, 'urgency', alert.status === 'ended' ? 'Past' : level.urgency)
  add(info, 'severity', level.severity)
  add(info, 'certainty', level.certainty)
  add(info, 'effective', capTime(alert.starts_at, zone))
  add(info, 'onset', capTime(alert.starts_at, zone))
  if (expires) add(info, 'expires', capTime(expires, zone))
  add(info, 'senderName', `${town.name}, ${town.state}`)
  add(info, 'headline', alert.title)
  const description = [alert.body.trim(), alert.status === 'ended' ? `All clear. ${alert.all_clear ?? ''}`.trim() : '']
  if (description.some(Boolean)) add(info, 'description', description.filter(Boolean).join('\n\n'))
  add(info, 'web', new URL(alertPath(alert.id), siteUrl).href)
  const contact = [town.contact_phone, town.contact_email].filter(Boolean).join(', ')
  if (contact) add(info, 'contact', contact)
  const area = info.ele(capNamespace, 'area')
  add(area, 'areaDesc', alertAreaDesc(alert, town))
  return root.end({ prettyPrint: true })
}

/** The Atom feed of the given alerts (those /alerts lists, in its order), updated at the latest of them. */
export function alertsAtomFeed(alerts: Alert[], town: Town, siteUrl: string | URL, builtAt: Date): string {
  const url = (path: string) => new URL(path, siteUrl).href
  const updated = alerts.reduce(
    (latest, alert) => Math.max(latest, Date.parse(alertUpdatedAt(alert))),
    alerts.length ? 0 : builtAt.getTime(),
  )
  const feed = create({ version: '1.0', encoding: 'UTF-8' }).ele(atomNamespace, 'feed')
  const add = (parent: typeof feed, name: string, text: string) => parent.ele(atomNamespace, name).txt(text).up()
  add(feed, 'id', url(alertsFeedPath))
  add(feed, 'title', `Alerts – ${town.name}, ${town.state}`)
  add(feed, 'subtitle', `Emergencies, advisories and notices for ${town.name}, ${town.state}.`)
  add(feed, 'updated', new Date(updated).toISOString())
  feed.ele(atomNamespace, 'link', { rel: 'self', type: 'application/atom+xml', href: url(alertsFeedPath) }).up()
  feed.ele(atomNamespace, 'link', { rel: 'alternate', type: 'text/html', href: url('/alerts') }).up()
  feed.ele(atomNamespace, 'author').ele(atomNamespace, 'name').txt(`${town.name}, ${town.state}`).up().up()
  for (const alert of alerts) {
    const entry = feed.ele(atomNamespace, 'entry')
    const ended = alert.status === 'ended' ? ' (all clear)' : ''
    add(entry, 'id', url(alertPath(alert.id)))
    add(entry, 'title', `${alertLevelLabels[alert.level]}: ${alert.title}${ended}`)
    add(entry, 'published', new Date(alert.published_at).toISOString())
    add(entry, 'updated', new Date(alertUpdatedAt(alert)).toISOString())
    entry.ele(atomNamespace, 'link', { rel: 'alternate', type: 'text/html', href: url(alertPath(alert.id)) }).up()
    entry
      .ele(atomNamespace, 'link', { rel: 'related', type: 'application/cap+xml', href: url(alertCapPath(alert.id)) })
      .up()
    entry.ele(atomNamespace, 'category', { term: alert.level, label: alertLevelLabels[alert.level] }).up()
    entry
      .ele(atomNamespace, 'content', { type: 'text' })
      .txt(alert.body || alert.title)
      .up()
  }
  return feed.end({ prettyPrint: true })
}
