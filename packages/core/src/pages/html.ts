/**
 * A tiny HTML template tag: every interpolated value is escaped unless it is
 * already `SafeHtml` (the result of another `html` call). Pages cannot forget to
 * escape, because escaping is the default.
 *
 * Templates are written one element per line; a line break and the indentation
 * after it are dropped from the template's own text (never from a value), so
 * the source reads well and the page stays compact. Where words must be
 * separated across lines, the space goes before the line break.
 * @module
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
}

export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"'`]/g, (c) => escapes[c]!)
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value
  if (Array.isArray(value)) return value.map(render).join("")
  if (value === null || value === undefined || value === false) return ""
  return escapeHtml(value)
}

/** Each call site's template, line breaks and indentation removed once (the array is per site). */
const compacted = new WeakMap<TemplateStringsArray, readonly string[]>()

function compact(strings: TemplateStringsArray): readonly string[] {
  let parts = compacted.get(strings)
  if (!parts) {
    parts = strings.map((part) => part.replace(/\n\s*/g, ""))
    compacted.set(strings, parts)
  }
  return parts
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  const parts = compact(strings)
  let out = parts[0]!
  values.forEach((value, i) => {
    out += render(value) + parts[i + 1]!
  })
  return new SafeHtml(out)
}

/** Trusted markup (constants only, never user input). */
export function unsafeRaw(markup: string): SafeHtml {
  return new SafeHtml(markup)
}
