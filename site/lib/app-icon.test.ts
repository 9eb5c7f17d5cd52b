import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { renderAppIcon } from './app-icon.ts'

const town = { name: 'Roland', place: 'Roland, Arkansas' }
let kept: string

beforeAll(async () => {
  kept = await mkdtemp(path.join(tmpdir(), 'roland-app-icons-'))
})
afterAll(() => rm(kept, { recursive: true, force: true }))

describe('the app icon', () => {
  test('is an opaque palette PNG of the size asked, a few KB at 192 px', async () => {
    const icon = await renderAppIcon(192, town, kept)
    const info = await sharp(icon).metadata()
    expect(info).toMatchObject({ format: 'png', width: 192, height: 192, hasAlpha: false, isPalette: true })
    expect(icon.length).toBeLessThan(8 * 1024)
  })

  test('is encoded once for a drawing: the next build takes the one kept', async () => {
    const files = await readdir(kept)
    expect(files).toHaveLength(1)
    // The kept file is what a later call returns, not an encoding of its own.
    await writeFile(path.join(kept, files[0]!), 'kept')
    expect(Buffer.from(await renderAppIcon(192, town, kept)).toString()).toBe('kept')
    // Another size, or another town on the sign, is another drawing.
    await renderAppIcon(512, town, kept)
    await renderAppIcon(192, { name: 'Bigelow', place: 'Bigelow, Arkansas' }, kept)
    expect(await readdir(kept)).toHaveLength(3)
  })

  test('is still drawn where no icon can be kept', async () => {
    const blocked = path.join(kept, 'a-file')
    await writeFile(blocked, '')
    const icon = await renderAppIcon(192, town, path.join(blocked, 'icons'))
    expect((await sharp(icon).metadata()).width).toBe(192)
  })
})
