// Writes osm-vocabulary.json from the installed @openstreetmap/id-tagging-schema:
//   pnpm exec node scripts/src/migrate/generate-osm-vocabulary.ts
// Run it after updating that package; osm-vocabulary.test.ts fails until the table matches it.
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { format, resolveConfig } from 'prettier'
import { buildOsmVocabulary, readInstalledOsmSchema } from './osm-vocabulary.ts'

const target = new URL('./osm-vocabulary.json', import.meta.url)
const vocabulary = buildOsmVocabulary(readInstalledOsmSchema())
const filepath = fileURLToPath(target)
// Formatted as the repository's Prettier settings say, so `pnpm lint` accepts the file as written.
const options = await resolveConfig(filepath)
await writeFile(target, await format(JSON.stringify(vocabulary), { ...options, filepath }))
console.log(
  `osm-vocabulary.json: ${Object.keys(vocabulary.phrases).length} phrases from ${vocabulary.package} ${vocabulary.version}`,
)
