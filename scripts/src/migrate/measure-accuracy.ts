// Prints how well the parser reads each fixture list (or the lists named on the command line):
//   pnpm exec node scripts/src/migrate/measure-accuracy.ts [scripts/test/fixtures/unseen/hickory-flat.txt …]
// Each line: the fields read right out of all, entries lost and unexpected (merged or split), then
// the mismatches. The accuracy tests hold every list to 1.000; this is for measuring a new list.
import { readdirSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { loadList, scoreList } from './accuracy.ts'

const fixtures = new URL('../../test/fixtures/', import.meta.url)
const named = process.argv.slice(2).map((path) => pathToFileURL(path))
const files =
  named.length > 0
    ? named
    : ['towns/', 'unseen/'].flatMap((folder) =>
        readdirSync(new URL(folder, fixtures))
          .filter((file) => file.endsWith('.txt'))
          .map((file) => new URL(`${folder}${file}`, fixtures)),
      )

for (const url of files) {
  const folder = new URL('./', url)
  const file = url.pathname.slice(folder.pathname.length)
  const list = loadList(folder, file)
  const score = scoreList(list.parsed, list.expected)
  console.log(
    `${file}: ${(score.correct / score.total).toFixed(3)} of fields right (${score.correct}/${score.total}), ${list.expected.length} entries, ${score.lost} lost, ${score.unexpected} unexpected`,
  )
  for (const mismatch of score.mismatches) console.log(`  ${mismatch}`)
}
