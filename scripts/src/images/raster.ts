import { PNG } from 'pngjs'

// A tiny software rasterizer for the local store image: rectangles, polygons, circles and
// gradients in logical pixels, drawn at `supersample`× and box-filtered down when encoded, so
// slanted and round edges come out anti-aliased without a canvas or any native package.

/** An sRGB colour with 0–255 channels and an opacity from 0 to 1. */
export interface Color {
  r: number
  g: number
  b: number
  a: number
}

/** A point in logical pixels. */
export type Point = readonly [x: number, y: number]

/** Parses '#rgb' or '#rrggbb' into an opaque colour. */
export function hexColor(hex: string): Color {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim())
  if (!match) throw new Error(`Not a hex colour: "${hex}". Use the form #1d4ed8.`)
  const digits = match[1]!.length === 3 ? [...match[1]!].map((d) => d + d).join('') : match[1]!
  return {
    r: Number.parseInt(digits.slice(0, 2), 16),
    g: Number.parseInt(digits.slice(2, 4), 16),
    b: Number.parseInt(digits.slice(4, 6), 16),
    a: 1,
  }
}

/** Mixes two colours: t = 0 gives a, t = 1 gives b. */
export function mix(a: Color, b: Color, t: number): Color {
  return {
    r: Math.round(a.r + (b.r - a.r) * t),
    g: Math.round(a.g + (b.g - a.g) * t),
    b: Math.round(a.b + (b.b - a.b) * t),
    a: a.a + (b.a - a.a) * t,
  }
}

/** Returns the colour with another opacity. */
export function withAlpha(color: Color, a: number): Color {
  return { ...color, a }
}

const white: Color = { r: 255, g: 255, b: 255, a: 1 }
const black: Color = { r: 0, g: 0, b: 0, a: 1 }

/** Lightens a colour towards white by t (0–1). */
export function lighten(color: Color, t: number): Color {
  return mix(color, { ...white, a: color.a }, t)
}

/** Darkens a colour towards black by t (0–1). */
export function darken(color: Color, t: number): Color {
  return mix(color, { ...black, a: color.a }, t)
}

/** Relative luminance (WCAG), to pick readable colours over a background. */
export function luminance(color: Color): number {
  const channel = (value: number) => {
    const c = value / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)
}

/** An RGBA drawing surface in logical pixels, stored at a higher resolution for anti-aliasing. */
export class Raster {
  readonly width: number
  readonly height: number
  readonly supersample: number
  readonly pixels: Uint8ClampedArray
  private readonly deviceWidth: number
  private readonly deviceHeight: number

  constructor(width: number, height: number, supersample = 2) {
    this.width = width
    this.height = height
    this.supersample = supersample
    this.deviceWidth = width * supersample
    this.deviceHeight = height * supersample
    this.pixels = new Uint8ClampedArray(this.deviceWidth * this.deviceHeight * 4)
  }

  /** Fills a rectangle given by its top-left corner and size. */
  fillRect(x: number, y: number, w: number, h: number, color: Color): void {
    const s = this.supersample
    const x0 = Math.max(0, Math.round(x * s))
    const x1 = Math.min(this.deviceWidth, Math.round((x + w) * s))
    const y0 = Math.max(0, Math.round(y * s))
    const y1 = Math.min(this.deviceHeight, Math.round((y + h) * s))
    for (let py = y0; py < y1; py++) this.span(py, x0, x1, color)
  }

  /** Fills a rectangle with rounded corners of radius r. */
  fillRoundedRect(x: number, y: number, w: number, h: number, r: number, color: Color): void {
    const radius = Math.max(0, Math.min(r, w / 2, h / 2))
    this.fillRows(y, y + h, color, (cy) => {
      let inset = 0
      const top = y + radius - cy
      const bottom = cy - (y + h - radius)
      const d = top > 0 ? top : bottom > 0 ? bottom : 0
      if (d > 0) inset = radius - Math.sqrt(Math.max(0, radius * radius - d * d))
      return [[x + inset, x + w - inset]]
    })
  }

  /** Fills a circle. */
  fillCircle(cx: number, cy: number, r: number, color: Color): void {
    this.fillEllipse(cx, cy, r, r, color)
  }

  /** Fills an axis-aligned ellipse. */
  fillEllipse(cx: number, cy: number, rx: number, ry: number, color: Color): void {
    this.fillRows(cy - ry, cy + ry, color, (y) => {
      const dy = (y - cy) / ry
      const half = rx * Math.sqrt(Math.max(0, 1 - dy * dy))
      return [[cx - half, cx + half]]
    })
  }

  /** Fills a polygon (even-odd rule), so concave outlines such as mountain ridges work. */
  fillPolygon(points: readonly Point[], color: Color): void {
    if (points.length < 3) return
    const ys = points.map((p) => p[1])
    this.fillRows(Math.min(...ys), Math.max(...ys), color, (y) => {
      const crossings: number[] = []
      for (let i = 0; i < points.length; i++) {
        const [ax, ay] = points[i]!
        const [bx, by] = points[(i + 1) % points.length]!
        if ((ay <= y && by > y) || (by <= y && ay > y)) crossings.push(ax + ((y - ay) / (by - ay)) * (bx - ax))
      }
      crossings.sort((a, b) => a - b)
      const spans: Array<[number, number]> = []
      for (let i = 0; i + 1 < crossings.length; i += 2) spans.push([crossings[i]!, crossings[i + 1]!])
      return spans
    })
  }

  /** Fills a rectangle with a vertical gradient from the top colour to the bottom one. */
  fillVerticalGradient(x: number, y: number, w: number, h: number, top: Color, bottom: Color): void {
    const s = this.supersample
    const y0 = Math.max(0, Math.round(y * s))
    const y1 = Math.min(this.deviceHeight, Math.round((y + h) * s))
    const x0 = Math.max(0, Math.round(x * s))
    const x1 = Math.min(this.deviceWidth, Math.round((x + w) * s))
    for (let py = y0; py < y1; py++) {
      const t = y1 - y0 > 1 ? (py - y0) / (y1 - y0 - 1) : 0
      this.span(py, x0, x1, mix(top, bottom, t))
    }
  }

  /** Draws a straight line of the given width with square ends. */
  line(from: Point, to: Point, width: number, color: Color): void {
    const [ax, ay] = from
    const [bx, by] = to
    const length = Math.hypot(bx - ax, by - ay)
    if (length === 0) return
    const nx = (-(by - ay) / length) * (width / 2)
    const ny = ((bx - ax) / length) * (width / 2)
    this.fillPolygon(
      [
        [ax + nx, ay + ny],
        [bx + nx, by + ny],
        [bx - nx, by - ny],
        [ax - nx, ay - ny],
      ],
      color,
    )
  }

  /** Averages each supersample block into one pixel and encodes the result as an RGB PNG. */
  toPng(): Uint8Array {
    const s = this.supersample
    const png = new PNG({ width: this.width, height: this.height, colorType: 2, inputHasAlpha: true })
    const out = png.data
    const area = s * s
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        let r = 0
        let g = 0
        let b = 0
        for (let dy = 0; dy < s; dy++) {
          let i = ((y * s + dy) * this.deviceWidth + x * s) * 4
          for (let dx = 0; dx < s; dx++, i += 4) {
            r += this.pixels[i]!
            g += this.pixels[i + 1]!
            b += this.pixels[i + 2]!
          }
        }
        const o = (y * this.width + x) * 4
        out[o] = Math.round(r / area)
        out[o + 1] = Math.round(g / area)
        out[o + 2] = Math.round(b / area)
        out[o + 3] = 255
      }
    }
    return new Uint8Array(PNG.sync.write(png, { colorType: 2, inputHasAlpha: true, deflateLevel: 9 }))
  }

  // Calls spansAt for the centre of every device row between top and bottom (logical units)
  // and fills the spans it returns, covering device pixels whose centres fall inside.
  private fillRows(
    top: number,
    bottom: number,
    color: Color,
    spansAt: (y: number) => Array<readonly [number, number]>,
  ): void {
    const s = this.supersample
    const y0 = Math.max(0, Math.floor(top * s))
    const y1 = Math.min(this.deviceHeight, Math.ceil(bottom * s))
    for (let py = y0; py < y1; py++) {
      const y = (py + 0.5) / s
      if (y < top || y > bottom) continue
      for (const [left, right] of spansAt(y)) {
        const x0 = Math.max(0, Math.ceil(left * s - 0.5))
        const x1 = Math.min(this.deviceWidth, Math.floor(right * s - 0.5) + 1)
        this.span(py, x0, x1, color)
      }
    }
  }

  private span(py: number, x0: number, x1: number, color: Color): void {
    if (x1 <= x0) return
    const a = Math.max(0, Math.min(1, color.a))
    if (a === 0) return
    let i = (py * this.deviceWidth + x0) * 4
    const end = (py * this.deviceWidth + x1) * 4
    const p = this.pixels
    if (a >= 1) {
      for (; i < end; i += 4) {
        p[i] = color.r
        p[i + 1] = color.g
        p[i + 2] = color.b
        p[i + 3] = 255
      }
      return
    }
    const keep = 1 - a
    for (; i < end; i += 4) {
      p[i] = color.r * a + p[i]! * keep
      p[i + 1] = color.g * a + p[i + 1]! * keep
      p[i + 2] = color.b * a + p[i + 2]! * keep
      p[i + 3] = 255
    }
  }
}
