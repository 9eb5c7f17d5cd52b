import { builtPages, sitePathOf } from '../../test/support/build-site.ts'
import { firstRoundTrip } from '../../test/support/page-weight.ts'
const dir = process.argv[2]!
const cache = new Map<string, number>()
const rows = []
for (const f of await builtPages(dir)) { const t = await firstRoundTrip(dir, f, cache); rows.push([t.total, t.html, t.css, sitePathOf(dir, f)]) }
rows.sort((a, b) => (b[0] as number) - (a[0] as number))
for (const r of rows.slice(0, Number(process.argv[3] ?? 15))) console.log(r.join('\t'))
console.log('pages', rows.length)
