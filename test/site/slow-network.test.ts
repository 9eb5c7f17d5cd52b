import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { layoutShifts, recordLayoutShifts } from '../support/layout-shifts.ts'
import { desktop, phone, useSite } from '../support/site-session.ts'

// A phone on a slow rural connection gets a page in pieces, and Chromium lays out and paints what
// it has while it waits for the rest. The header is drawn whole (BaseLayout's rel="expect" holds the
// first paint until <main> begins), so nothing in it moves as the rest arrives: not the menu toggle
// growing as its label comes in, not the links sliding left as more of them come.

const site = useSite()

/** How the slow connection delivers a page: this many bytes, then a pause. */
const piece = 1500
const pause = 80

/**
 * A server on 127.0.0.1 in front of the fixture site: HTML pages come in pieces with a pause
 * after each; stylesheets, scripts and photos pass through whole.
 */
let slow: Server
let slowBase: string

beforeAll(async () => {
  slow = createServer(async (request, response) => {
    const upstream = await fetch(site.url(request.url ?? '/'), { redirect: 'manual' })
    const type = upstream.headers.get('content-type') ?? ''
    const body = Buffer.from(await upstream.arrayBuffer())
    response.writeHead(upstream.status, { 'content-type': type, 'cache-control': 'no-store' })
    if (!type.startsWith('text/html')) return response.end(body)
    for (let at = 0; at < body.length; at += piece) {
      response.write(body.subarray(at, at + piece))
      await sleep(pause)
    }
    response.end()
  })
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
  slowBase = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`
})

afterAll(async () => {
  slow.closeAllConnections()
  await new Promise((resolve) => slow.close(resolve))
})

/** The layout shifts in the header of a page as it loads over the slow connection, each with what moved. */
async function shiftsWhileLoading(path: string, viewport: { width: number; height: number }) {
  const { page } = await site.open('about:blank', { viewport })
  await recordLayoutShifts(page)
  await page.goto(`${slowBase}${path}`, { waitUntil: 'load' })
  // Two frames after the load, so the last piece has been laid out and any shift reported.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
  const { shifts } = await layoutShifts(page)
  return shifts.filter(({ inHeader }) => inHeader).map(({ moved }) => moved)
}

describe('a page arriving slowly, in pieces', () => {
  test('draws its header once, whole, on a phone and on a desktop', async () => {
    const pages = ['/', '/professional-services', '/business/roland-auto-repair']
    const loads = [phone, desktop].flatMap((viewport) =>
      pages.map(async (path) => [`${path} at ${viewport.width}px`, await shiftsWhileLoading(path, viewport)] as const),
    )
    // The pages load side by side: each spends most of its time waiting for its next piece.
    const shifts = Object.fromEntries(await Promise.all(loads))
    expect(shifts).toEqual(Object.fromEntries(Object.keys(shifts).map((load) => [load, []])))
  })
})
