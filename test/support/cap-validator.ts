import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { canInstallDebianPackages, findOrInstall, installDebianPackage, isExecutable } from './browser.ts'

// CAP 1.2 messages checked against OASIS's schema (test/fixtures/cap-v1.2.xsd) by a real XML
// schema validator: xmllint, from Debian's libxml2-utils, installed when missing as the tests'
// browser and Java are (browser.ts, html-checker.ts), or the run stops saying what to install.

/** What to do when there is no xmllint and none could be installed. */
export const noXmllintHelp =
  'Install xmllint (on Debian as root: `apt-get install -y libxml2-utils`; on macOS it comes with the system).'

/** The CAP 1.2 schema the messages are checked against. */
export const capSchemaFile = fileURLToPath(new URL('../fixtures/cap-v1.2.xsd', import.meta.url))

/** The first xmllint on PATH, or undefined. */
export function findXmllint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return (env.PATH ?? '')
    .split(':')
    .filter(Boolean)
    .map((dir) => `${dir}/xmllint`)
    .find(isExecutable)
}

/** Finds xmllint, installing Debian's when there is none, and stops with what to install otherwise. */
export function ensureXmllint(): string {
  return findOrInstall(
    () => findXmllint(),
    () => (canInstallDebianPackages() ? installDebianPackage('libxml2-utils') : 'this is not Debian as root'),
    (outcome) => `No xmllint for the CAP schema check, and installing it ${outcome}. ${noXmllintHelp}`,
  )
}

/** Runs xmllint --noout on files with more arguments: its complaints, or an empty string when it has none. */
function xmllint(args: string[]): Promise<string> {
  const command = ensureXmllint()
  return new Promise((resolve, reject) => {
    execFile(command, ['--noout', '--nonet', ...args], (error, _stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(new Error(`xmllint could not run: ${error.message}`))
      else resolve(error ? stderr || `xmllint exited with ${error.code}` : '')
    })
  })
}

/** Checks XML files against an XML schema (CAP 1.2 by default): xmllint's complaints, or '' when every file is valid. */
export function validateAgainstSchema(files: string[], schema = capSchemaFile): Promise<string> {
  return xmllint(['--schema', schema, ...files])
}

/** Checks that XML files parse: xmllint's complaints, or '' when every one is well-formed. */
export function wellFormedProblems(files: string[]): Promise<string> {
  return xmllint(files)
}
