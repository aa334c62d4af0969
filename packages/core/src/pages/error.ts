/**
 * The error page: what happened and what to do next, with one way on: back
 * to sign-in, or (for a server fault, where signing in would fail again) out
 * to the app's home page. Status: Configuration 500, AccessDenied and
 * Verification 403, anything else (or none) 200.
 * @module
 */
import { html } from "./html.js"
import { renderDocument, type PageContext, type RenderedPage } from "./layout.js"
import { errorPageEntry } from "./messages.js"

export interface ErrorPageLinks {
  /** The sign-in page (built-in or custom); none when the configuration is broken. */
  signIn?: string
  /** The app's home page: its origin, or `/` when even that is unknown. */
  home: string
}

export function renderErrorPage(
  page: PageContext,
  links: ErrorPageLinks,
  error: string | undefined,
): RenderedPage {
  const { t } = page
  const entry = errorPageEntry(error)
  const next =
    entry.next === "signIn" && links.signIn
      ? html`<a class="button" href="${links.signIn}">${t.t("error.signIn")}</a>`
      : html`<a class="button" href="${links.home}">${t.t("error.home")}</a>`
  const heading = t.t(entry.heading)
  const content = () => html`
    <h1>${heading}</h1>
    <p role="alert">${t.t(entry.message)}</p>
    ${next}`
  return renderDocument(page, heading, content, undefined, entry.status)
}
