import { describe, expect, test } from 'vitest'
import { webhookBody } from './submission-webhook.ts'

describe('webhookBody', () => {
  test("names the site by the town's name from its settings, and escapes Slack's markup", () => {
    const body = webhookBody(
      { kind: 'business-update', businessName: 'Tom & Jerry <Diner>', fields: ['phone', 'hours'] },
      'https://console.example/#inbox',
      'Silver Creek',
    )
    expect(body.content).toBe(
      "New suggestion on the Silver Creek site: a change to Tom & Jerry <Diner> (phone, hours). Review it in the console's Inbox: https://console.example/#inbox",
    )
    expect(body.text).toContain('Tom &amp; Jerry &lt;Diner&gt;')
    expect(body.allowed_mentions).toEqual({ parse: [] })
  })
})
