import type { ServiceRow } from './schema.ts'

// A business's services as people type them, one per line, "Name: description" (the description
// is optional): the console's business editor and the site's suggestion form read and write the same text.

/** Writes services one per line, "Name: description" (just the name when there is no description). */
export function servicesToText(services: readonly ServiceRow[]): string {
  return services.map((s) => (s.description ? `${s.service_name}: ${s.description}` : s.service_name)).join('\n')
}

/** Reads services written one per line, "Name: description" (the description is optional; blank lines are skipped). */
export function textToServices(text: string): ServiceRow[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf(': ')
      return at > 0
        ? { service_name: line.slice(0, at).trim(), description: line.slice(at + 2).trim() || null }
        : { service_name: line, description: null }
    })
}
