/**
 * The document around every built-in page: the theme applied through CSS
 * custom properties (`colorScheme: "auto"` follows the visitor's system
 * setting), the page's language and direction, the pending-button script, and
 * the headers that protect it. No favicon request: the icon is an empty inline one.
 * @module
 */
import type { Theme } from "../types.js"
import { noStoreHeaders } from "../http/response.js"
import { contrastingText, cssColor } from "./colors.js"
import { html, unsafeRaw, type SafeHtml } from "./html.js"
import type { Translator } from "./i18n/localization.js"
import { pendingScript } from "./pending-script.js"

export { cssColor } from "./colors.js"

// Colours meet WCAG 2.2 AA in both schemes: text 4.5:1 on its background, field borders 3:1.
const CSS = [
  ":root{--brand:#346df1;--button-text:#fff;--bg:#f3f4f6;--card:#fff;--text:#111827;--muted:#4b5563;--border:#d1d5db;--field:#6b7280;--link:#1d4ed8;--focus:#1d4ed8;--error:#991b1b;--error-bg:#fee2e2;--notice-bg:#fef3c7}",
  ".dark{--bg:#111827;--card:#1f2937;--text:#f9fafb;--muted:#d1d5db;--border:#374151;--field:#9ca3af;--link:#93c5fd;--focus:#93c5fd;--error:#fecaca;--error-bg:#7f1d1d;--notice-bg:#78350f}",
  "@media (prefers-color-scheme:dark){.auto{--bg:#111827;--card:#1f2937;--text:#f9fafb;--muted:#d1d5db;--border:#374151;--field:#9ca3af;--link:#93c5fd;--focus:#93c5fd;--error:#fecaca;--error-bg:#7f1d1d;--notice-bg:#78350f}}",
  "*{box-sizing:border-box}",
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text);min-height:100vh;display:flex;align-items:center;justify-content:center}',
  "main{width:100%;max-width:24rem;padding:1rem}",
  ".card{background:var(--card);border:1px solid var(--border);border-radius:.75rem;padding:1.5rem}",
  "h1{font-size:1.25rem;margin:0 0 1rem}",
  "p{color:var(--muted);line-height:1.5}",
  ".logo{display:block;max-height:4rem;max-width:12rem;margin:0 auto 1rem}",
  "form{display:flex;flex-direction:column;gap:.5rem;margin:0}",
  "label{font-size:.875rem;font-weight:500}",
  "input{padding:.6rem .75rem;border:1px solid var(--field);border-radius:.5rem;background:var(--card);color:var(--text);font:inherit}",
  "button,.button{display:block;width:100%;padding:.65rem .75rem;border:0;border-radius:.5rem;background:var(--provider-bg,var(--brand));color:var(--provider-text,var(--button-text));font:inherit;font-weight:600;cursor:pointer;text-align:center;text-decoration:none}",
  "button:disabled{cursor:default;opacity:.7}",
  "button[aria-busy=true]{cursor:progress}",
  ".provider+.provider{margin-top:.75rem}",
  ".divider{display:flex;align-items:center;gap:.75rem;margin:1.25rem 0;color:var(--muted);font-size:.875rem}",
  '.divider::before,.divider::after{content:"";flex:1;border-top:1px solid var(--border)}',
  ".error{background:var(--error-bg);color:var(--error);border-radius:.5rem;padding:.75rem;margin:0 0 1rem;font-size:.9rem}",
  ".provider .error{margin:.5rem 0 0}",
  ".notice{background:var(--notice-bg);color:var(--text);border-radius:.5rem;padding:.75rem;margin:0 0 .5rem;font-size:.9rem}",
  ".provider-logo{height:1.1rem;vertical-align:middle;margin-inline-end:.5rem}",
  "a{color:var(--link)}",
  ".links{display:flex;flex-wrap:wrap;gap:.5rem 1rem;justify-content:center;margin-top:1rem}",
  ":focus-visible{outline:3px solid var(--focus);outline-offset:2px}",
].join("\n")

/** What every page is rendered with: the theme and the request's strings. */
export interface PageContext {
  readonly theme: Readonly<Theme>
  readonly t: Translator
}

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
 * no Referer to other sites, no content sniffing, and no handle on the page for a
 * site that opened it with `window.open` (COOP: the opener can neither watch nor
 * navigate the sign-in window). (`same-origin`, not
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
    "Cross-Origin-Opener-Policy": "same-origin",
  }
}

/** The theme's colours as CSS: the brand colour, and a button text colour that can be read on it. */
function themeCss(theme: Readonly<Theme>): string {
  let css = ""
  if (theme.brandColor) {
    const brand = cssColor(theme.brandColor)
    css += `:root{--brand:${brand}}`
    const text = theme.buttonText ? undefined : contrastingText(brand)
    if (text) css += `:root{--button-text:${text}}`
  }
  if (theme.buttonText) css += `:root{--button-text:${cssColor(theme.buttonText)}}`
  return css
}

/**
 * A whole page. `content` and `head` receive the page's nonce, for any
 * `<style>`/`<script>` they add (nothing inline runs without it).
 */
export function renderDocument(
  page: PageContext,
  title: string,
  content: (nonce: string) => SafeHtml,
  head?: (nonce: string) => SafeHtml,
  status?: number,
): RenderedPage {
  const { theme, t } = page
  const nonce = newNonce()
  const scheme = theme.colorScheme ?? "auto"
  const body = html`<!DOCTYPE html>
    <html lang="${t.locale}" dir="${t.dir}" class="${scheme}">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width,initial-scale=1">
        <meta name="color-scheme" content="${scheme === "auto" ? "light dark" : scheme}">
        <link rel="icon" href="data:,">
        <title>${title}</title>
        <style nonce="${nonce}">${unsafeRaw(CSS + themeCss(theme))}</style>
        <script nonce="${nonce}">${unsafeRaw(pendingScript)}</script>
        ${head?.(nonce) ?? ""}
      </head>
      <body>
        <main>
          ${theme.logo ? html`<img class="logo" src="${theme.logo}" alt="">` : ""}
          <div class="card">
            ${content(nonce)}
          </div>
        </main>
      </body>
    </html>`
  const headers = { ...pageHeaders(nonce), "Content-Language": t.locale }
  return { ...(status !== undefined ? { status } : {}), body: body.value, headers }
}
