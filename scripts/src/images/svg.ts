// The SVG the store image is written in: colours and flat shapes as element strings, which
// resvg turns into pixels. Every number is rounded to two decimals and every colour is built from
// parsed channels, so the same drawing always gives the same text, and nothing from the input
// reaches the markup unescaped.

/** An RGB colour with an opacity from 0 to 1. */
export interface Color {
  r: number
  g: number
  b: number
  a: number
}

/** A point in image pixels. */
export type Point = readonly [number, number]

/** Parses '#rgb' or '#rrggbb' into a colour; fails on anything else. */
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

/** Blends two colours: t = 0 gives a, t = 1 gives b. */
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

/** Moves a colour towards white by t (0 to 1). */
export function lighten(color: Color, t: number): Color {
  return mix(color, { r: 255, g: 255, b: 255, a: color.a }, t)
}

/** Moves a colour towards black by t (0 to 1). */
export function darken(color: Color, t: number): Color {
  return mix(color, { r: 0, g: 0, b: 0, a: color.a }, t)
}

/** Computes the relative luminance of a colour (WCAG), from 0 for black to 1 for white. */
export function luminance(color: Color): number {
  const channel = (value: number) => {
    const c = value / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)
}

/** Writes a number for SVG: at most two decimals, no trailing zeros. */
export function num(value: number): string {
  return String(Math.round(value * 100) / 100)
}

/** Writes a colour as SVG paint attributes: a fill (or another paint property) and its opacity when not opaque. */
export function paint(color: Color, property: 'fill' | 'stop-color' = 'fill'): string {
  const rgb = `#${[color.r, color.g, color.b].map((c) => c.toString(16).padStart(2, '0')).join('')}`
  const opacity = property === 'fill' ? 'fill-opacity' : 'stop-opacity'
  return color.a >= 1 ? `${property}="${rgb}"` : `${property}="${rgb}" ${opacity}="${num(color.a)}"`
}

/** Escapes text for an SVG text node or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.codePointAt(0)};`)
}

/** Draws a filled rectangle, with rounded corners when r is given. */
export function rect(x: number, y: number, w: number, h: number, color: Color, r = 0): string {
  const corner = r > 0 ? ` rx="${num(r)}"` : ''
  return `<rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}"${corner} ${paint(color)}/>`
}

/** Draws a filled circle. */
export function circle(cx: number, cy: number, r: number, color: Color): string {
  return `<circle cx="${num(cx)}" cy="${num(cy)}" r="${num(r)}" ${paint(color)}/>`
}

/** Draws a filled ellipse. */
export function ellipse(cx: number, cy: number, rx: number, ry: number, color: Color): string {
  return `<ellipse cx="${num(cx)}" cy="${num(cy)}" rx="${num(rx)}" ry="${num(ry)}" ${paint(color)}/>`
}

/** Draws a filled polygon through the points. */
export function polygon(points: readonly Point[], color: Color): string {
  return `<polygon points="${points.map(([x, y]) => `${num(x)},${num(y)}`).join(' ')}" ${paint(color)}/>`
}
