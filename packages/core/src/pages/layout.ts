/**
 * The document around every built-in page, with the theme applied through CSS
 * custom properties. `colorScheme: "auto"` follows the visitor's system setting.
 * @module
 */
import type { Theme } from "../types.js"
import { noStoreHeaders } from "../http/response.js"
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

/** A built-in page as the handler answers it: its HTML and the headers that protect it. */
export interface RenderedPage {
  status?: number
  body: string
  headers: Record<string, string>
}

/** A fresh nonce (128 bits) for the page's own `<style>` and `<script>`. */
function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
}

/**
 * The headers of every built-in page: never cached (they carry CSRF tokens),
 * never framed (clickjacking), no inline code but the page's own (a nonce),
 * no Referer to other sites, no content sniffing. (`same-origin`, not
 * `no-referrer`: with no referrer at all, browsers send `Origin: null` on the
 * page's own form posts, which the CSRF check rightly refuses. Responses at
 * URLs that carry a token use `no-referrer`.)
 */
export function pageHeaders(nonce: string): Record<string, string> {
  return {
    ...noStoreHeaders,
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "img-src * data:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join("; "),
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
  }
}

/**
 * A whole page. `content` and `head` receive the page's nonce, for any
 * `<style>`/`<script>` they add (nothing inline runs without it).
 */
export function renderDocument(
  theme: Theme,
  title: string,
  content: (nonce: string) => SafeHtml,
  head?: (nonce: string) => SafeHtml,
  status?: number,
): RenderedPage {
  const nonce = newNonce()
  const scheme = theme.colorScheme ?? "auto"
  const brand = theme.brandColor ? `:root{--brand:${cssColor(theme.brandColor)}}` : ""
  const buttonText = theme.buttonText ? `:root{--button-text:${cssColor(theme.buttonText)}}` : ""
  const body = `<!DOCTYPE html>${html`<html lang="en" class="${scheme}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="${scheme === "auto" ? "light dark" : scheme}"><title>${title}</title><style nonce="${nonce}">${unsafeRaw(CSS + brand + buttonText)}</style>${head?.(nonce) ?? ""}</head><body><main>${theme.logo ? html`<img class="logo" src="${theme.logo}" alt="">` : ""}<div class="card">${content(nonce)}</div></main></body></html>`}`
  return { ...(status !== undefined ? { status } : {}), body, headers: pageHeaders(nonce) }
}

/** Theme colours go into CSS, so only plain colour syntax is let through. */
export function cssColor(value: string): string {
  return /^(#[0-9a-f]{3,8}|[a-z]+|(rgb|hsl)a?\([0-9.,%\s/]+\))$/i.test(value) ? value : "inherit"
}
