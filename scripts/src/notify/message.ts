import { renderMarkdown } from '../content/markdown.ts'
import { formatTownTime } from '../content/town-time.ts'
import type { ClaimedMessage, NotifyTopic } from './outbox.ts'

// What each email of "Notify me" says (issue 48): a plain-text part and an HTML part (every
// value escaped; an alert's Markdown through the pages' renderer, which shows raw HTML as text),
// why the reader gets it, a visible link to the site's /notify/unsubscribe, and the RFC 8058
// one-click unsubscribe headers pointing at the console's public route.

/** An email ready for nodemailer. */
export interface RenderedEmail {
  to: string
  subject: string
  text: string
  html: string
  headers: Record<string, string>
}

/** What every email needs to know beyond its message: the town and the addresses of the links. */
export interface EmailContext {
  townName: string
  timeZone: string
  siteUrl: string
  apiBase: string
}

/** An alert as its emails show it. */
export interface AlertContent {
  id: string
  title: string
  body: string
  level: 'emergency' | 'advisory' | 'notice'
  area: string | null
  starts_at: string | null
  ends_at: string | null
  /** The "All clear" note, once ended. */
  end_message: string | null
}

/** A digest's content, as queued (digest.ts). */
export interface DigestContent {
  week: string
  events: Array<{ title: string; starts_at: string; location: string; url: string; cancelled?: boolean }>
  alerts: Array<{ id: string; title: string; level: string }>
  businesses: Array<{ slug: string; name: string; category: string }>
}

const levelWords: Record<AlertContent['level'], string> = {
  emergency: 'Emergency',
  advisory: 'Advisory',
  notice: 'Notice',
}

/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function topicWords(topics: readonly NotifyTopic[]): string {
  const words = topics.map((t) => (t === 'alerts' ? 'town alerts' : 'the weekly events digest'))
  return words.length ? words.join(' and ') : 'email from the town'
}

function htmlPage(title: string, body: string, footer: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:40rem;margin:0 auto;padding:1rem;color:#111">` +
    `${body}<hr style="margin-top:2rem"><p style="font-size:0.875rem;color:#444">${footer}</p></body></html>`
  )
}

function link(url: string, label: string): string {
  return `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`
}

/** Renders one claimed message as an email. */
export function renderEmail(message: ClaimedMessage, context: EmailContext): RenderedEmail {
  const token = encodeURIComponent(message.unsubscribe_token)
  const oneClick = `${context.apiBase}/api/public/unsubscribe?token=${token}`
  const unsubscribePage = `${context.siteUrl}/notify/unsubscribe?token=${token}`
  const headers = {
    'List-Unsubscribe': `<${oneClick}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  }
  const town = context.townName
  const why =
    message.kind === 'confirm'
      ? `You get this because someone entered this address on the ${town} website to get ${topicWords(message.topics)}.`
      : `You get this because you subscribed to ${topicWords(message.topics)} from the ${town} website.`
  const footerText = `${why}\nUnsubscribe, or choose what you get: ${unsubscribePage}`
  const footerHtml = `${escapeHtml(why)}<br>${link(unsubscribePage, 'Unsubscribe, or choose what you get')}`
  const base = { to: message.email, headers }

  if (message.kind === 'confirm') {
    const confirm = `${context.siteUrl}/notify/confirm?token=${encodeURIComponent(message.confirm_token ?? '')}`
    const subject = `Confirm your email for ${town}`
    const lead = `Please confirm that you want ${topicWords(message.topics)} from ${town}.`
    const step = 'Open this page and press "Confirm": nothing is sent until you do.'
    const ignore = 'If it was not you, ignore this email: the address is deleted in 7 days.'
    return {
      ...base,
      subject,
      text: `${lead}\n\n${step}\n${confirm}\n\n${ignore}\n\n-- \n${footerText}\n`,
      html: htmlPage(
        subject,
        `<p>${escapeHtml(lead)}</p><p>${escapeHtml(step)}</p><p>${link(confirm, 'Confirm my email')}</p><p>${escapeHtml(ignore)}</p>`,
        footerHtml,
      ),
    }
  }

  if (message.kind === 'alert' || message.kind === 'all-clear') {
    const alert = message.content as unknown as AlertContent
    const page = `${context.siteUrl}/alerts/${encodeURIComponent(alert.id)}`
    const level = levelWords[alert.level] ?? 'Alert'
    const ended = message.kind === 'all-clear'
    const subject = ended ? `All clear: ${alert.title}` : `${level}: ${alert.title}`
    const where = alert.area ? `Area: ${alert.area}` : `Area: ${town}`
    const when = alert.starts_at ? `From ${formatTownTime(alert.starts_at, context.timeZone)}` : ''
    const until = !ended && alert.ends_at ? ` until ${formatTownTime(alert.ends_at, context.timeZone)}` : ''
    const note = ended ? alert.end_message?.trim() || 'The alert has ended.' : ''
    const textBody = ended
      ? `All clear: ${alert.title}\n\n${note}\n\n${where}\nMore: ${page}\n`
      : `${level.toUpperCase()}: ${alert.title}\n${where}\n${when}${until}\n\n${alert.body}\n\nMore: ${page}\n`
    const htmlBody = ended
      ? `<h1>All clear: ${escapeHtml(alert.title)}</h1><p>${escapeHtml(note)}</p><p>${escapeHtml(where)}</p><p>${link(page, 'Read it on the website')}</p>`
      : `<p><strong>${escapeHtml(level)}</strong></p><h1>${escapeHtml(alert.title)}</h1>` +
        `<p>${escapeHtml(where)}${when ? `<br>${escapeHtml(when + until)}` : ''}</p>` +
        `${renderMarkdown(alert.body)}<p>${link(page, 'Read it on the website')}</p>`
    return {
      ...base,
      subject,
      text: `${textBody}\n-- \n${footerText}\n`,
      html: htmlPage(subject, htmlBody, footerHtml),
    }
  }

  const digest = message.content as unknown as DigestContent
  const subject = `This week in ${town}`
  const eventLines = digest.events.map(
    (e) =>
      `- ${formatTownTime(e.starts_at, context.timeZone)}: ${e.title}${e.cancelled ? ' (cancelled)' : ''}, ${e.location}\n  ${e.url}`,
  )
  const alertLines = digest.alerts.map(
    (a) =>
      `- ${levelWords[a.level as AlertContent['level']] ?? a.level}: ${a.title}\n  ${context.siteUrl}/alerts/${a.id}`,
  )
  const businessLines = digest.businesses.map(
    (b) => `- ${b.name} (${b.category})\n  ${context.siteUrl}/business/${b.slug}`,
  )
  const sections: Array<[string, string[], string[]]> = [
    [
      'Alerts in force',
      alertLines,
      digest.alerts.map(
        (a) =>
          `<li>${escapeHtml(levelWords[a.level as AlertContent['level']] ?? a.level)}: ${link(`${context.siteUrl}/alerts/${a.id}`, a.title)}</li>`,
      ),
    ],
    [
      'Events in the coming seven days',
      eventLines.length ? eventLines : ['No events are listed for the coming week.'],
      digest.events.length
        ? digest.events.map(
            (e) =>
              `<li>${escapeHtml(formatTownTime(e.starts_at, context.timeZone))}: ${link(e.url, e.title)}${e.cancelled ? ' (cancelled)' : ''}, ${escapeHtml(e.location)}</li>`,
          )
        : ['<li>No events are listed for the coming week.</li>'],
    ],
    [
      'New businesses this week',
      businessLines,
      digest.businesses.map(
        (b) => `<li>${link(`${context.siteUrl}/business/${b.slug}`, b.name)} (${escapeHtml(b.category)})</li>`,
      ),
    ],
  ]
  const shown = sections.filter(([, lines]) => lines.length > 0)
  return {
    ...base,
    subject,
    text: `${subject}\n\n${shown.map(([title, lines]) => `${title}\n${lines.join('\n')}`).join('\n\n')}\n\nAll events: ${context.siteUrl}/events\n\n-- \n${footerText}\n`,
    html: htmlPage(
      subject,
      `<h1>${escapeHtml(subject)}</h1>${shown.map(([title, , items]) => `<h2>${escapeHtml(title)}</h2><ul>${items.join('')}</ul>`).join('')}` +
        `<p>${link(`${context.siteUrl}/events`, 'All events')}</p>`,
      footerHtml,
    ),
  }
}
