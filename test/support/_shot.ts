import { launchBrowser } from '/work/main/test/support/browser.ts'
import { serveStatic } from '/work/main/test/support/static-server.ts'
const server = await serveStatic('/tmp/rout/site')
const browser = await launchBrowser()
const paths = process.argv.slice(2)
for (const p of paths) {
  const [route, w] = p.split('@')
  const page = await browser.newPage({ viewport: { width: Number(w ?? 1280), height: 900 } })
  const errors: string[] = []
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()) })
  page.on('pageerror', (e) => errors.push(String(e)))
  const res = await page.goto(server.url + route)
  await page.waitForTimeout(500)
  const name = `/tmp/shot-${route.replace(/\W+/g, '_')}-${w ?? 1280}.png`
  await page.screenshot({ path: name, fullPage: true })
  console.log(route, res?.status(), name, errors)
  await page.close()
}
await browser.close(); await server.close()
