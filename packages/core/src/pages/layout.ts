/**
 * The document around every built-in page, with the theme applied through CSS
 * custom properties. `colorScheme: "auto"` follows the visitor's system setting.
 * @module
 */
import type { Theme } from "../types.js"
import { html, unsafeRaw, type SafeHtml } from "./html.js"

const CSS = `
:root{--brand:#346df1;--button-text:#fff;--bg:#f3f4f6;--card:#fff;--text:#111827;--muted:#6b7280;--border:#d1d5db;--error:#b91c1c;--error-bg:#fee2e2}
.dark{--bg:#111827;--card:#1f2937;--text:#f9fafb;--muted:#9ca3af;--border:#374151;--error:#fecaca;--error-bg:#7f1d1d}
@media (prefers-color-scheme:dark){.auto{--bg:#111827;--card:#1f2937;--text:#f9fafb;--muted:#9ca3af;--border:#374151;--error:#fecaca;--error-bg:#7f1d1d}}
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text);min-height:100vh;display:flex;align-items:center;justify-content:center}
main{width:100%;max-width:24rem;padding:1rem}.card{background:var(--card);border:1px solid var(--border);border-radius:.75rem;padding:1.5rem}
h1{font-size:1.25rem;margin:0 0 1rem}p{color:var(--muted);line-height:1.5}.logo{display:block;max-height:4rem;max-width:12rem;margin:0 auto 1rem}
form{display:flex;flex-direction:column;gap:.5rem;margin:0}label{font-size:.875rem;font-weight:500}
input{padding:.6rem .75rem;border:1px solid var(--border);border-radius:.5rem;background:var(--card);color:var(--text);font:inherit}
button,.button{display:block;width:100%;padding:.65rem .75rem;border:0;border-radius:.5rem;background:var(--provider-bg,var(--brand));color:var(--button-text);font:inherit;font-weight:600;cursor:pointer;text-align:center;text-decoration:none}
.provider+.provider{margin-top:.75rem}hr{border:0;border-top:1px solid var(--border);margin:1.25rem 0}
.error{background:var(--error-bg);color:var(--error);border-radius:.5rem;padding:.75rem;margin-bottom:1rem;font-size:.9rem}
.provider-logo{height:1.1rem;vertical-align:middle;margin-right:.5rem}
`

export function renderDocument(
  theme: Theme,
  title: string,
  body: SafeHtml,
  head: SafeHtml | string = "",
): string {
  const scheme = theme.colorScheme ?? "auto"
  const brand = theme.brandColor ? `:root{--brand:${cssColor(theme.brandColor)}}` : ""
  const buttonText = theme.buttonText ? `:root{--button-text:${cssColor(theme.buttonText)}}` : ""
  return `<!DOCTYPE html>${html`<html lang="en" class="${scheme}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="${scheme === "auto" ? "light dark" : scheme}"><title>${title}</title><style>${unsafeRaw(CSS + brand + buttonText)}</style>${head}</head><body><main>${theme.logo ? html`<img class="logo" src="${theme.logo}" alt="">` : ""}<div class="card">${body}</div></main></body></html>`}`
}

/** Theme colours go into CSS, so only plain colour syntax is let through. */
export function cssColor(value: string): string {
  return /^(#[0-9a-f]{3,8}|[a-z]+|(rgb|hsl)a?\([0-9.,%\s/]+\))$/i.test(value) ? value : "inherit"
}
