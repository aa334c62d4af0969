/**
 * Form fields of the built-in pages, rendered in one place: the hidden fields
 * every sign-in form carries, and the inputs a provider declares (credentials
 * fields, passkey form fields).
 * @module
 */
import type { SignInPageParams } from "../flows/types.js"
import type { CredentialInput } from "../providers/credentials.js"
import { html, type SafeHtml } from "./html.js"

/** The CSRF token a form posts back (double submit: the handler checks it against its cookie). */
export function csrfField(csrfToken: string): SafeHtml {
  return html`
    <input type="hidden" name="csrfToken" value="${csrfToken}">`
}

/** A hidden field the form posts back as it is. */
export function hiddenField(name: string, value: string): SafeHtml {
  return html`
    <input type="hidden" name="${name}" value="${value}">`
}

/** The CSRF token and callback URL every sign-in form posts back. */
export function hiddenFields(
  params: Pick<SignInPageParams, "csrfToken" | "callbackUrl">,
): SafeHtml {
  return html`
    ${csrfField(params.csrfToken)}
    ${hiddenField("callbackUrl", params.callbackUrl)}`
}

/** Attribute names let through from a field's extra keys: plain names only, no event handlers' quotes. */
const ATTRIBUTE = /^[a-z][a-z0-9-]*$/i

/**
 * Names that are never let through, whatever the configuration says: event
 * handlers and `style` are inline code the page's CSP refuses (the page keeps
 * none of its own), and `form`/`formaction`/`formtarget`/... would send the
 * field, or the whole form, somewhere other than the provider's callback.
 */
const REFUSED = /^(?:on|form)|^style$/i

/**
 * A labelled input. Keys of `input` beyond the known ones become attributes
 * (`minlength`, `pattern`, ...); `prefill` is the value when the field has none.
 */
export function formField(
  name: string,
  input: CredentialInput,
  id: string,
  prefill?: string,
): SafeHtml {
  const { label, type = "text", value, placeholder, required, autocomplete, ...extra } = input
  const shown = value ?? prefill
  const attributes = Object.entries(extra)
    .filter(
      ([key, v]) =>
        ATTRIBUTE.test(key) &&
        !REFUSED.test(key) &&
        (typeof v === "string" || typeof v === "number" || v === true),
    )
    .map(([key, v]) => (v === true ? html` ${key}` : html` ${key}="${String(v)}"`))
  const optional = [
    shown !== undefined ? html` value="${shown}"` : "",
    placeholder ? html` placeholder="${placeholder}"` : "",
    required ? html` required` : "",
    autocomplete ? html` autocomplete="${autocomplete}"` : "",
    attributes,
  ]
  return html`
    <label for="${id}">${label ?? name}</label>
    <input id="${id}" name="${name}" type="${type}"${optional}>`
}

/** The id of a provider's input, as Auth.js names it (tests and app CSS rely on it). */
export function fieldId(name: string, providerId: string): string {
  return `input-${name}-for-${providerId}-provider`
}
