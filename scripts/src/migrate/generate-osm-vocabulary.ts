// Writes osm-vocabulary.json (the import's category vocabulary) and osm-presets.json (what the
// search says a business is) from the installed @openstreetmap/id-tagging-schema:
//   pnpm exec node scripts/src/migrate/generate-osm-vocabulary.ts
// Run it after updating that package; osm-vocabulary.test.ts fails until the table matches it.
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { format, resolveConfig } from 'prettier'
import { buildOsmPresets, buildOsmVocabulary, readInstalledOsmSchema } from './osm-vocabulary.ts'

const schema = readInstalledOsmSchema()
const vocabulary = buildOsmVocabulary(schema)
const presets = buildOsmPresets(schema)

/** Writes a file beside this script, formatted as the repository's Prettier settings say (so `pnpm lint` accepts it). */
async function writeJson(name: string, data: unknown): Promise<void> {
  const target = new URL(name, import.meta.url)
  const filepath = fileURLToPath(target)
  const options = await resolveConfig(filepath)
  await writeFile(target, await format(JSON.stringify(data), { ...options, filepath }))
}

await writeJson('./osm-vocabulary.json', vocabulary)
await writeJson('./osm-presets.json', presets)
console.log(
  `osm-vocabulary.json: ${Object.keys(vocabulary.phrases).length} phrases from ${vocabulary.package} ${vocabulary.version}; osm-presets.json: ${presets.presets.length} presets`,
)
