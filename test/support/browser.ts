import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** Where Debian's Chromium lives; the end-to-end tests drive it through playwright-core. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/** Launches the system Chromium, headless; fails with how to install it when it is missing. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium was not found at ${chromiumPath}: install Chromium: apt-get install -y chromium`)
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
