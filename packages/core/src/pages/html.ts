/**
 * A tiny HTML template tag: every interpolated value is escaped unless it is
 * already `SafeHtml` (the result of another `html` call). Pages cannot forget to
 * escape, because escaping is the default.
 *
 * Templates are written one element per line, and the page comes out that
 * way: the indentation after a line break is dropped from the template's own
 * text (never from a value), and so are the breaks that open and close a
 * template. `view-source:` reads like the template, without its indentation.
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
  if (Array.isArray(value)) {
    // A list of elements comes out one per line, like the template around it.
    return value
      .map(render)
      .filter((part) => part !== "")
      .reduce(
        (out, part) => out + (out.endsWith(">") && part.startsWith("<") ? "\n" : "") + part,
        "",
      )
  }
  if (value === null || value === undefined || value === false) return ""
  return escapeHtml(value)
}

/** Each call site's template, indentation removed once (the array is per site). */
const compacted = new WeakMap<TemplateStringsArray, readonly string[]>()

function compact(strings: TemplateStringsArray): readonly string[] {
  let parts = compacted.get(strings)
  if (!parts) {
    const last = strings.length - 1
    parts = strings.map((part, i) => {
      let text = part.replace(/\n\s*/g, "\n")
      if (i === 0) text = text.replace(/^\n/, "")
      if (i === last) text = text.replace(/\n$/, "")
      return text
    })
    compacted.set(strings, parts)
  }
  return parts
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  const parts = compact(strings)
  let out = parts[0]!
  let lastEmpty = false
  values.forEach((value, i) => {
    const rendered = render(value)
    let next = parts[i + 1]!
    // A value left empty (no error, no logo) leaves no blank line behind.
    lastEmpty = rendered === ""
    if (lastEmpty && (out === "" || out.endsWith("\n")) && next.startsWith("\n"))
      next = next.slice(1)
    out += rendered + next
  })
  if (lastEmpty && parts.at(-1) === "" && out.endsWith("\n")) out = out.slice(0, -1)
  return new SafeHtml(out)
}

/** Trusted markup (constants only, never user input). */
export function unsafeRaw(markup: string): SafeHtml {
  return new SafeHtml(markup)
}
