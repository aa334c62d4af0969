import type { Theme } from "../types.js"
import { html } from "./html.js"
import { renderDocument, type RenderedPage } from "./layout.js"
import { errorPageMessages } from "./messages.js"

/** The error page and its status: Configuration 500, AccessDenied 403, Verification 403, anything else (or none) 200. */
export function renderErrorPage(
  theme: Theme,
  signInUrl: string | undefined,
  error: string | undefined,
): RenderedPage {
  const entry =
    (error && Object.hasOwn(errorPageMessages, error) ? errorPageMessages[error] : undefined) ??
    errorPageMessages.default!
  const link =
    entry.signInLink && signInUrl ? html`<a class="button" href="${signInUrl}">Sign in</a>` : ""
  const body = html`<h1>${entry.heading}</h1><p>${entry.message}</p>${link}`
  return renderDocument(theme, "Error", () => body, undefined, entry.status)
}
