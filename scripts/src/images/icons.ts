import { circle, ellipse, polygon, rect, type Color, type Point } from './svg.ts'

// The category icons of location_categories.icon_name, drawn as flat shapes on a 100×100 grid.
// They are painted in a foreground colour over a solid background; cut-outs (windows, handle
// holes) are painted in the background colour, which is why every icon gets both.

/** Where and how to draw an icon: its box in logical pixels and its two colours. */
export interface IconBox {
  x: number
  y: number
  size: number
  fg: Color
  bg: Color
}

interface Pen {
  rect(x: number, y: number, w: number, h: number, cut?: boolean): void
  round(x: number, y: number, w: number, h: number, r: number, cut?: boolean): void
  circle(cx: number, cy: number, r: number, cut?: boolean): void
  ellipse(cx: number, cy: number, rx: number, ry: number, cut?: boolean): void
  poly(points: readonly Point[], cut?: boolean): void
}

type IconDrawing = (pen: Pen) => void

const icons: Record<string, IconDrawing> = {
  building(p) {
    p.rect(24, 12, 52, 78)
    p.rect(18, 86, 64, 6)
    for (const y of [22, 38, 54]) {
      p.rect(32, y, 12, 10, true)
      p.rect(56, y, 12, 10, true)
    }
    p.round(42, 70, 16, 16, 3, true)
  },
  utensils(p) {
    // Fork: three tines over a rounded base and handle.
    for (const x of [22, 31, 40]) p.round(x, 8, 6, 32, 3)
    p.round(22, 34, 24, 14, 7)
    p.round(30, 44, 8, 48, 4)
    // Knife: a curved blade and a handle.
    p.poly([
      [62, 8],
      [70, 10],
      [77, 24],
      [78, 56],
      [62, 56],
    ])
    p.round(63, 52, 12, 40, 5)
  },
  'shopping-bag'(p) {
    p.circle(50, 34, 19)
    p.circle(50, 34, 12, true)
    p.poly([
      [20, 34],
      [80, 34],
      [86, 90],
      [14, 90],
    ])
    p.circle(38, 44, 3.5, true)
    p.circle(62, 44, 3.5, true)
  },
  briefcase(p) {
    p.round(35, 12, 30, 22, 6)
    p.round(42, 19, 16, 16, 3, true)
    p.round(10, 28, 80, 60, 9)
    p.rect(10, 52, 80, 5, true)
    p.round(43, 47, 14, 15, 3)
  },
  trophy(p) {
    p.circle(26, 30, 14)
    p.circle(26, 30, 7, true)
    p.circle(74, 30, 14)
    p.circle(74, 30, 7, true)
    p.rect(27, 10, 46, 26)
    p.ellipse(50, 36, 23, 24)
    p.rect(45, 56, 10, 18)
    p.round(30, 72, 40, 8, 3)
    p.round(24, 80, 52, 10, 3)
  },
  mountain(p) {
    p.poly([
      [6, 88],
      [38, 24],
      [54, 54],
      [66, 38],
      [94, 88],
    ])
    p.poly(
      [
        [31, 38],
        [38, 24],
        [45, 38],
        [41, 35],
        [38, 40],
        [34, 35],
      ],
      true,
    )
    p.circle(78, 18, 8)
  },
  star(p) {
    p.poly(starPoints(50, 53, 46, 19))
  },
  users(p) {
    // One person behind another: the front one is cut out of the back one, then drawn.
    p.circle(64, 30, 12)
    p.ellipse(64, 76, 22, 24)
    p.rect(38, 76, 60, 30, true)
    p.circle(38, 38, 17, true)
    p.ellipse(38, 88, 30, 30, true)
    p.circle(38, 38, 13)
    p.ellipse(38, 88, 26, 26)
    p.rect(0, 88, 100, 30, true)
  },
  shield(p) {
    p.poly([
      [50, 8],
      [86, 20],
      [82, 56],
      [50, 92],
      [18, 56],
      [14, 20],
    ])
    p.poly(
      [
        [50, 20],
        [74, 28],
        [71, 54],
        [50, 78],
      ],
      true,
    )
  },
  church(p) {
    p.rect(47, 4, 6, 22)
    p.rect(40, 10, 20, 6)
    p.poly([
      [50, 22],
      [74, 44],
      [26, 44],
    ])
    p.rect(30, 42, 40, 48)
    p.rect(12, 60, 76, 30)
    p.round(43, 66, 14, 24, 7, true)
    p.round(20, 68, 10, 12, 5, true)
    p.round(70, 68, 10, 12, 5, true)
  },
  'graduation-cap'(p) {
    p.poly([
      [50, 16],
      [96, 38],
      [50, 60],
      [4, 38],
    ])
    p.poly([
      [26, 52],
      [50, 64],
      [74, 52],
      [74, 76],
      [50, 86],
      [26, 76],
    ])
    p.rect(84, 40, 4, 34)
    p.circle(86, 78, 6)
  },
  landmark(p) {
    p.poly([
      [50, 8],
      [94, 32],
      [6, 32],
    ])
    for (const x of [16, 34, 56, 74]) p.rect(x, 40, 10, 38)
    p.rect(10, 34, 80, 6)
    p.rect(8, 80, 84, 8)
  },
  sailboat(p) {
    p.rect(50, 8, 4, 62)
    p.poly([
      [57, 12],
      [88, 64],
      [57, 64],
    ])
    p.poly([
      [46, 24],
      [46, 64],
      [18, 64],
    ])
    p.poly([
      [8, 72],
      [92, 72],
      [80, 90],
      [20, 90],
    ])
  },
}

/** The icon names the renderer can draw; any other name is drawn as a building. */
export const iconNames: readonly string[] = Object.keys(icons)

/** Draws the named icon in its box, as SVG elements; unknown names get the generic building. */
export function iconSvg(name: string, box: IconBox): string {
  const k = box.size / 100
  const px = (x: number) => box.x + x * k
  const py = (y: number) => box.y + y * k
  const colour = (cut: boolean | undefined) => (cut ? box.bg : box.fg)
  const shapes: string[] = []
  const pen: Pen = {
    rect: (x, y, w, h, cut) => shapes.push(rect(px(x), py(y), w * k, h * k, colour(cut))),
    round: (x, y, w, h, r, cut) => shapes.push(rect(px(x), py(y), w * k, h * k, colour(cut), r * k)),
    circle: (cx, cy, r, cut) => shapes.push(circle(px(cx), py(cy), r * k, colour(cut))),
    ellipse: (cx, cy, rx, ry, cut) => shapes.push(ellipse(px(cx), py(cy), rx * k, ry * k, colour(cut))),
    poly: (points, cut) =>
      shapes.push(
        polygon(
          points.map(([x, y]) => [px(x), py(y)] as const),
          colour(cut),
        ),
      ),
  }
  ;(icons[name] ?? icons.building!)(pen)
  return shapes.join('')
}

/** The outline of a five-pointed star, point up. */
export function starPoints(cx: number, cy: number, outer: number, inner: number): Point[] {
  const points: Point[] = []
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outer : inner
    const angle = -Math.PI / 2 + (i * Math.PI) / 5
    points.push([cx + r * Math.cos(angle), cy + r * Math.sin(angle)])
  }
  return points
}
