/**
 * A tiny HTML template tag: every interpolated value is escaped unless it is
 * already `SafeHtml` (the result of another `html` call). Pages cannot forget to
 * escape, because escaping is the default.
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

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!
  })
  return new SafeHtml(out)
}

/** Trusted markup (constants only, never user input). */
export function unsafeRaw(markup: string): SafeHtml {
  return new SafeHtml(markup)
}
