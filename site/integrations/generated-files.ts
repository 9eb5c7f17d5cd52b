/**
 * Files an integration writes into the output folder after Astro's build (the service worker),
 * which publishing (publish-site.ts) keeps with the pages rather than remove as left over.
 */
const generated = new Set<string>()

/** Marks a file of the output folder (a path relative to it) as made by this build. */
export function keepGeneratedFile(file: string): void {
  generated.add(file)
}

/** The files integrations made after the build, relative to the output folder. */
export function generatedFiles(): ReadonlySet<string> {
  return generated
}

/** Forgets the files of the last build, as a build starts (a process may build again: build-server.ts). */
export function forgetGeneratedFiles(): void {
  generated.clear()
}
