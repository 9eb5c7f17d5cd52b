import type { AlertRow } from '@roland/scripts/content/schema-base'

// The place on the Alerts screen for who an alert reaches (issue 48, "Notify me"): how many
// subscribers each topic has, and each alert's delivery ("sent 212 of 215, 3 failed"). The alerts
// half of the issue shows nothing here; the notify half fills these two in, and the screen
// (screens/Alerts.tsx) already renders them where they belong.

/** Subscribers per topic, at the top of the Alerts screen (counts only). */
export function AlertSubscribers(): React.ReactNode {
  return null
}

/** One alert's email delivery, under its title on the Alerts screen. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the notify half shows this alert's figures
export function AlertDelivery({ alert }: { alert: AlertRow }): React.ReactNode {
  return null
}
