/**
 * Colours from configuration (`theme.brandColor`, a provider's `style.brandColor`):
 * only plain colour syntax reaches a stylesheet, and the text on a coloured
 * button is black or white, whichever contrasts more with it (WCAG 2.2
 * relative luminance), so a light brand colour keeps its label readable.
 * @module
 */

/**
 * `value` if it is plain colour syntax (hex, `rgb()`/`hsl()`, a name), else `inherit`:
 * theme colours go into CSS, and nothing else may.
 *
 * @param value A colour from configuration.
 */
export function cssColor(value: string): string {
  return /^(#[0-9a-f]{3,8}|[a-z]+|(rgb|hsl)a?\([0-9.,%\s/]+\))$/i.test(value) ? value : "inherit"
}

/** The named colours on which white text contrasts more than black; every other name takes black. */
const DARK_NAMES = new Set(
  (
    "black blue blueviolet brown crimson darkblue darkgreen darkmagenta darkolivegreen darkorchid " +
    "darkred darkslateblue darkslategray darkslategrey darkviolet dimgray dimgrey firebrick green " +
    "indigo maroon mediumblue mediumvioletred midnightblue navy purple rebeccapurple royalblue " +
    "saddlebrown sienna slateblue teal"
  ).split(" "),
)

type Rgb = [number, number, number]

function fromHex(hex: string): Rgb | undefined {
  const digits = hex.length <= 5 ? [...hex].map((d) => d + d).join("") : hex
  if (digits.length !== 6 && digits.length !== 8) return undefined
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as Rgb
}

/** A number or percentage of `scale`; hue-less channels only. */
function channel(text: string, scale: number): number {
  return text.endsWith("%") ? (parseFloat(text) / 100) * scale : parseFloat(text)
}

function fromHsl(h: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + h / 30) % 12
  const a = s * Math.min(l, 1 - l)
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))
  return [f(0) * 255, f(8) * 255, f(4) * 255]
}

/** The sRGB value of a colour in the syntax `cssColor` lets through; named colours are not parsed. */
function parse(color: string): Rgb | undefined {
  const value = color.trim().toLowerCase()
  if (value.startsWith("#")) return fromHex(value.slice(1))
  const match = /^(rgb|hsl)a?\((.*)\)$/.exec(value)
  if (!match) return undefined
  const parts = match[2]!.split(/[\s,/]+/).filter(Boolean)
  if (parts.length < 3) return undefined
  if (match[1] === "rgb") return parts.slice(0, 3).map((p) => channel(p, 255)) as Rgb
  return fromHsl(parseFloat(parts[0]!), channel(parts[1]!, 1), channel(parts[2]!, 1))
}

/** WCAG 2.2 relative luminance of an sRGB colour. */
function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const v = Math.min(255, Math.max(0, c)) / 255
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/** Words `cssColor` lets through that are not a colour of their own. */
const NOT_A_COLOUR = new Set([
  "inherit",
  "initial",
  "unset",
  "revert",
  "transparent",
  "currentcolor",
])

/**
 * Black or white: the text colour with the higher contrast ratio on `background`
 * (at least 4.58:1 whatever the background); undefined when `background` is
 * not a colour that can be read (the default text colour stays).
 *
 * @param background A colour from configuration, as `cssColor` lets it through.
 */
export function contrastingText(background: string): "#000" | "#fff" | undefined {
  const value = background.trim().toLowerCase()
  if (NOT_A_COLOUR.has(value)) return undefined
  if (/^[a-z]+$/.test(value)) return DARK_NAMES.has(value) ? "#fff" : "#000"
  const rgb = parse(value)
  if (!rgb || rgb.some((c) => !Number.isFinite(c))) return undefined
  const l = luminance(rgb)
  // Contrast with black (l + 0.05) / 0.05 against white 1.05 / (l + 0.05).
  return (l + 0.05) * (l + 0.05) > 0.05 * 1.05 ? "#000" : "#fff"
}
