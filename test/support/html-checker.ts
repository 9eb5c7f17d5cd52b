import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { canInstallDebianPackages, findOrInstall, installDebianPackage, isExecutable } from './browser.ts'
import { builtPages, sitePathOf } from './build-site.ts'

// The W3C Nu HTML checker (npm's vnu-jar) over built pages, in the tests and before Lighthouse
// (test/site/html.test.ts, lhci.ts). It runs on Java, which is found on PATH or in JAVA_HOME, and
// installed from Debian's packages when missing, as the tests' browser is (browser.ts).

/** What to do when there is no Java and none could be installed; the one message a run stops with. */
export const noJavaHelp =
  'Install a Java runtime (on Debian as root: `apt-get install -y default-jre-headless`), ' +
  'or set JAVA_HOME to one, for the Nu HTML checker (vnu-jar).'

/** The checker's jar, as the vnu-jar package ships it. */
const vnuJar = String(createRequire(import.meta.url)('vnu-jar') as string)

/** The `java` of JAVA_HOME, else the first on PATH; undefined when there is none. */
export function findJava(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [
    ...(env.JAVA_HOME ? [path.join(env.JAVA_HOME, 'bin', 'java')] : []),
    ...(env.PATH ?? '')
      .split(path.delimiter)
      .filter(Boolean)
      .map((dir) => path.join(dir, 'java')),
  ]
  return candidates.find(isExecutable)
}

/** Installs Debian's Java when this is Debian as root; returns why it could not, or undefined. */
export function installJava(): string | undefined {
  if (!canInstallDebianPackages()) return 'this is not Debian as root'
  console.error(
    "No Java for the HTML checker was found: installing Debian's (apt-get install -y default-jre-headless)…",
  )
  return installDebianPackage('default-jre-headless')
}

/**
 * Finds Java for the checker, installing it when there is none (`install` runs at most once), and
 * stops with what to install when that fails too.
 */
export function ensureJava(
  env: NodeJS.ProcessEnv = process.env,
  install: () => string | undefined = installJava,
): string {
  return findOrInstall(
    () => findJava(env),
    install,
    (outcome) => `No Java for the Nu HTML checker, and installing it ${outcome}. ${noJavaHelp}`,
  )
}

/** One error the checker found: the page (a site path, or the file's name), where, and what. */
export interface HtmlError {
  page: string
  line: number
  column: number
  message: string
  extract: string
}

/** One message of the checker's JSON output (`--format json`). */
interface VnuMessage {
  type: string
  subType?: string
  url: string
  lastLine?: number
  firstColumn?: number
  lastColumn?: number
  message: string
  extract?: string
}

/**
 * Messages that are the checker lagging behind the HTML standard, each with the markup it is
 * allowed on (found in the extract the checker quotes around the element), so that the same
 * message about any other markup still counts.
 *
 * `<link rel="expect" href="#main" blocking="render">` (BaseLayout.astro): the checker allows
 * `blocking` only on a stylesheet link, as the standard did before the `expect` link type. The
 * HTML Standard now defines that type (§4.6.7 Link types, "expect": html.spec.whatwg.org/multipage/
 * links.html#link-type-expect, added by whatwg/html#9970, February 2024): a link whose rel is
 * `expect` names an element of the page by its href and, with `blocking="render"`, keeps the page
 * from being rendered until that element has been parsed; `blocking` is one of the link element's
 * attributes ("blocking attributes", urls-and-fetching.html#blocking-attributes). Chromium and
 * Safari implement it; the checker's rule predates it.
 */
const standardAllows: Array<{ message: string; on: RegExp }> = [
  {
    message: 'A “link” element with a “blocking” attribute must have a “rel” attribute whose value is “stylesheet”.',
    on: /<link\b(?=[^>]*\brel="expect")(?=[^>]*\bblocking="render")[^>]*>/,
  },
]

const allowed = (message: VnuMessage) =>
  standardAllows.some((allowance) => message.message === allowance.message && allowance.on.test(message.extract ?? ''))

/**
 * Runs the checker over HTML files and returns its errors (warnings aside), those the standard
 * allows left out. `pageOf` names a file in the errors (by default its path).
 */
export async function checkHtmlFiles(
  files: readonly string[],
  pageOf: (file: string) => string = (file) => file,
): Promise<HtmlError[]> {
  if (files.length === 0) return []
  const java = ensureJava()
  const output = await new Promise<string>((resolve, reject) => {
    // The JSON report goes to stderr; --exit-zero-always, so that errors are read from it, not from the code.
    execFile(
      java,
      [
        // Java's quick compiler only: a check runs for seconds, too short for the optimizing one to
        // pay back its compiling (the sample site's 81 pages: 3.3–4.2 CPU-s instead of 7.4–8.6, the
        // same report). Its code overflows Java's default stack evaluating the HTML schema: 4 MB.
        '-XX:TieredStopAtLevel=1',
        '-Xss4m',
        '-jar',
        vnuJar,
        '--format',
        'json',
        '--errors-only',
        '--exit-zero-always',
        ...files,
      ],
      { maxBuffer: 64 * 2 ** 20 },
      (error, _stdout, stderr) =>
        error ? reject(new Error(`The Nu HTML checker failed: ${stderr || error.message}`)) : resolve(stderr),
    )
  })
  const { messages } = JSON.parse(output) as { messages: VnuMessage[] }
  return messages
    .filter((message) => message.type === 'error' || message.subType === 'fatal')
    .filter((message) => !allowed(message))
    .map((message) => ({
      page: pageOf(decodeURIComponent(new URL(message.url).pathname)),
      line: message.lastLine ?? 0,
      column: message.firstColumn ?? message.lastColumn ?? 0,
      message: message.message,
      extract: (message.extract ?? '').trim(),
    }))
}

/** Runs the checker over every page of a built site; errors name their page by its site path. */
export async function checkBuiltSite(outDir: string): Promise<HtmlError[]> {
  return checkHtmlFiles(await builtPages(outDir), (file) => sitePathOf(outDir, file))
}

/** One line per error: page, line and column, the message, and the markup it is about. */
export function formatHtmlError(error: HtmlError): string {
  return `${error.page}:${error.line}:${error.column}: ${error.message}${error.extract ? `\n    ${error.extract.slice(0, 200)}` : ''}`
}
