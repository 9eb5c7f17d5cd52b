import sharp from 'sharp'
import { rgbaToThumbHash } from 'thumbhash'
import { describe, expect, test } from 'vitest'
import { placeholderColor, placeholderDataUrl } from './placeholder.ts'

/** The ThumbHash (base64) of a width×height picture of one colour. */
function solidThumbHash(rgba: [number, number, number, number], width = 8, height = 6): string {
  const pixels = new Uint8Array(width * height * 4)
  for (let i = 0; i < pixels.length; i += 4) pixels.set(rgba, i)
  return Buffer.from(rgbaToThumbHash(width, height, pixels)).toString('base64')
}

const distance = (hex: string, rgb: [number, number, number]) =>
  Math.max(...rgb.map((channel, i) => Math.abs(parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) - channel)))

describe('placeholderColor', () => {
  test('gives the average colour of a ThumbHash as #rrggbb', () => {
    const color = placeholderColor(solidThumbHash([200, 120, 40, 255]))
    expect(color).toMatch(/^#[0-9a-f]{6}$/)
    expect(distance(color!, [200, 120, 40])).toBeLessThanOrEqual(8)
  })

  test('lays a transparent picture over white', () => {
    const color = placeholderColor(solidThumbHash([0, 0, 0, 0]))
    expect(distance(color!, [255, 255, 255])).toBeLessThanOrEqual(8)
  })

  test('gives null for a missing or broken ThumbHash', () => {
    expect(placeholderColor(null)).toBeNull()
    expect(placeholderColor('')).toBeNull()
    expect(placeholderColor('AQI=')).toBeNull()
    expect(placeholderColor('not base64!')).toBeNull()
  })
})

describe('placeholderDataUrl', () => {
  test('draws a ThumbHash as a PNG data URL of a few hundred bytes, in its colours', async () => {
    const url = placeholderDataUrl(solidThumbHash([40, 90, 60, 255], 60, 40))
    expect(url).toMatch(/^data:image\/png;base64,/)
    expect(url!.length).toBeLessThan(600)
    const { data, info } = await sharp(Buffer.from(url!.split(',')[1]!, 'base64'))
      .raw()
      .toBuffer({ resolveWithObject: true })
    // ThumbHash keeps the aspect ratio roughly (3:2 here).
    expect(info.width).toBe(8)
    expect(info.height).toBeGreaterThanOrEqual(5)
    expect(info.height).toBeLessThanOrEqual(6)
    expect(Math.max(...[40, 90, 60].map((channel, i) => Math.abs(data[i]! - channel)))).toBeLessThanOrEqual(8)
  })

  test('gives null for a missing ThumbHash', () => {
    expect(placeholderDataUrl(undefined)).toBeNull()
  })
})
