import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { canInstallDebianPackages, findOrInstall, installDebianPackage, isExecutable } from './browser.ts'

// Reads the text of a PDF the browser printed (test/site/print.test.ts) with pdftotext, from
// Poppler's utilities: found on PATH, or installed from Debian's packages when missing, as the
// tests' browser (browser.ts) and the HTML checker's Java (html-checker.ts) are.

/** What to do when there is no pdftotext and none could be installed; the one message a run stops with. */
export const noPdftotextHelp =
  "Install Poppler's utilities (on Debian as root: `apt-get install -y poppler-utils`; on macOS: `brew install poppler`), " +
  'or set PDFTOTEXT to a pdftotext executable.'

/** PDFTOTEXT, else the first `pdftotext` on PATH; undefined when there is none. */
export function findPdftotext(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [
    ...(env.PDFTOTEXT ? [env.PDFTOTEXT] : []),
    ...(env.PATH ?? '')
      .split(path.delimiter)
      .filter(Boolean)
      .map((dir) => path.join(dir, 'pdftotext')),
  ]
  return candidates.find(isExecutable)
}

/** Installs Debian's poppler-utils when this is Debian as root; returns why it could not, or undefined. */
export function installPdftotext(): string | undefined {
  if (!canInstallDebianPackages()) return 'this is not Debian as root'
  console.error("No pdftotext was found: installing Debian's (apt-get install -y poppler-utils)…")
  return installDebianPackage('poppler-utils')
}

/** Finds pdftotext, installing it when there is none (once), and stops with what to install when that fails too. */
export function ensurePdftotext(
  env: NodeJS.ProcessEnv = process.env,
  install: () => string | undefined = installPdftotext,
): string {
  return findOrInstall(
    () => findPdftotext(env),
    install,
    (outcome) => `No pdftotext to read the printed pages, and installing it ${outcome}. ${noPdftotextHelp}`,
  )
}

/** The text of a PDF, page by page (pdftotext ends each page with a form feed). */
export async function pdfPages(pdf: Buffer, pdftotext: string = ensurePdftotext()): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'roland-pdf-'))
  try {
    const file = path.join(dir, 'page.pdf')
    await writeFile(file, pdf)
    const { stdout } = await promisify(execFile)(pdftotext, ['-enc', 'UTF-8', file, '-'], {
      maxBuffer: 64 * 1024 * 1024,
    })
    const pages = stdout.split('\f')
    if (pages.at(-1)?.trim() === '') pages.pop()
    return pages
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
