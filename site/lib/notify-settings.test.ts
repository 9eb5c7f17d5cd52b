import { describe, expect, test } from 'vitest'
import { notifySettings } from './notify-settings.ts'

describe('notifySettings', () => {
  test('is null without PUBLIC_NOTIFY_URL: the pages show the feeds instead of the form', () => {
    expect(notifySettings({})).toBeNull()
    expect(notifySettings({ PUBLIC_NOTIFY_URL: ' ' })).toBeNull()
  })

  test('gives the confirm and unsubscribe routes beside the subscriptions route', () => {
    expect(notifySettings({ PUBLIC_NOTIFY_URL: 'https://console.example.org/api/public/subscriptions' })).toEqual({
      subscribe: 'https://console.example.org/api/public/subscriptions',
      confirm: 'https://console.example.org/api/public/subscriptions/confirm',
      unsubscribe: 'https://console.example.org/api/public/unsubscribe',
    })
  })

  test('fails the build on an address that is not http(s)', () => {
    expect(() => notifySettings({ PUBLIC_NOTIFY_URL: 'console:4322' })).toThrow(
      /must be the console's http\(s\) address/,
    )
  })
})
