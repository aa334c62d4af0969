/**
 * The passkey part of the built-in sign-in page and, once in the head, the
 * script that runs the ceremonies (see `browser-client.js`).
 *
 * A passkey provider has a form of its own (its fields, by default an e-mail
 * address, and a button), or, when the page shares the e-mail provider's
 * field with it (`params.emailForm`), just a button that joins that form: one
 * e-mail field serves both, with passkey autofill on it. The strings the script
 * shows travel as data attributes, in the page's language.
 *
 * At an IP address (http://127.0.0.1) browsers refuse WebAuthn outright (an rp
 * id must be a domain): the button is disabled and a note says to use localhost.
 *
 * Without JavaScript the button posts to `signin/<provider>`, which shows the
 * sign-in page again: passkeys need the script, the other providers do not.
 * @module
 */
import type { ResolvedWebAuthnProvider, SignInPageParams } from "../types.js"
import type { RequestContext } from "../../context.js"
import { html, unsafeRaw, type SafeHtml } from "../../pages/html.js"
import type { Translator } from "../../pages/i18n/localization.js"
import { actionUrl } from "../../http/urls.js"
import { fieldId, formField, hiddenFields } from "../../pages/form-fields.js"
import type { CredentialInput } from "../../providers/credentials.js"
import { defaultFormFields } from "../../providers/webauthn.js"
import { webauthnClientScript } from "./client-script.generated.js"

/** Built once: the script is constant and some 15 kB long. */
const script = unsafeRaw(webauthnClientScript)

/** True for an IP literal host (`127.0.0.1`, `[::1]`), where no browser runs WebAuthn. */
export function isIpAddress(hostname: string): boolean {
  return hostname.startsWith("[") || /^[0-9.]+$/.test(hostname)
}

/** The default e-mail field's label and placeholder in the page's language; an app's own stay. */
function localized(name: string, input: CredentialInput, t: Translator): CredentialInput {
  const defaults = defaultFormFields.email!
  if (name !== "email") return input
  return {
    ...input,
    ...(input.label === defaults.label ? { label: t.t("email.label") } : {}),
    ...(input.placeholder === defaults.placeholder
      ? { placeholder: t.t("email.placeholder") }
      : {}),
  }
}

/** What the passkey script needs: where to ask, whether to arm autofill, and its strings. */
function scriptAttributes(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  t: Translator,
  usable: boolean,
): SafeHtml {
  const attributes: [string, string | boolean][] = [
    ["data-webauthn-provider", provider.id],
    ["data-auth-url", ctx.authUrl],
    ["data-conditional-ui", provider.enableConditionalUI && usable],
    ["data-message-unsupported", t.t("passkey.unsupported")],
    ["data-message-cancelled", t.t("passkey.cancelled")],
    ["data-message-registered", t.t("passkey.registered")],
    ["data-message-failed", t.t("passkey.failed")],
    // `{host}` stays: the script puts in the host the browser is at.
    ["data-message-domain", t.t("passkey.ipAddress")],
  ]
  return html`${attributes.map(([name, value]) =>
    value === true ? html` ${name}` : value === false ? "" : html` ${name}="${value}"`,
  )}`
}

export function webauthnSection(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  params: SignInPageParams,
): SafeHtml {
  const { t } = params
  const host = new URL(ctx.origin).hostname
  const usable = !isIpAddress(host)
  const notice = usable ? "" : html`<p class="notice">${t.t("passkey.ipAddress", { host })}</p>`
  const error = html`<p class="error" data-webauthn-error="${provider.id}" role="alert" hidden></p>`
  const label = t.t("passkey.submit")
  const pending = t.t("passkey.pending")
  if (params.emailForm) {
    // One e-mail field for both: this button submits the e-mail form, to the passkey script.
    return html`
      <div class="provider">
        ${notice}
        <button type="submit" form="${params.emailForm}" formaction="${actionUrl(ctx, "signin", provider.id)}" formnovalidate data-pending="${pending}"${scriptAttributes(ctx, provider, t, usable)}${usable ? "" : html` disabled`}>${label}</button>
        ${error}
      </div>`
  }
  const fields = Object.entries(provider.formFields).map(([name, input]) =>
    formField(
      name,
      localized(name, input, t),
      fieldId(name, provider.id),
      name === "email" ? params.email : undefined,
    ),
  )
  return html`
    <form class="provider" action="${actionUrl(ctx, "signin", provider.id)}" method="POST"${scriptAttributes(ctx, provider, t, usable)}>
      ${hiddenFields(params)}
      ${fields}
      ${notice}
      <button type="submit" data-pending="${pending}"${usable ? "" : html` disabled`}>${label}</button>
      ${error}
    </form>`
}

/**
 * The two-factor page's "Use a passkey" button for `provider`: a control of
 * the passkey script (`data-webauthn-action="two-factor"`), which asks for the
 * pending user's passkeys and posts the answer to `callback/two-factor` with
 * the page's CSRF token. Without the script, the button only reloads the page
 * (a GET): no attempt is counted and no token leaves in a URL.
 */
export function webauthnSecondFactorButton(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  t: Translator,
  page: string,
): SafeHtml {
  const usable = !isIpAddress(new URL(ctx.origin).hostname)
  const attributes = scriptAttributes(ctx, { ...provider, enableConditionalUI: false }, t, usable)
  return html`
    <form class="provider" action="${page}" method="GET"${attributes} data-webauthn-action="two-factor">
      <button type="submit" data-pending="${t.t("passkey.pending")}"${usable ? "" : html` disabled`}>${t.t("twoFactor.passkey")}</button>
      <p class="error" data-webauthn-error="${provider.id}" role="alert" hidden></p>
    </form>`
}

/** The passkey script, once per page with a WebAuthn provider on it. */
export function webauthnHead(_ctx: RequestContext, nonce: string): SafeHtml {
  return html`<script nonce="${nonce}">${script}</script>`
}
