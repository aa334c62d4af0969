/**
 * The passkey part of the built-in sign-in page: a form per WebAuthn provider
 * (its fields, by default an e-mail address, and a button) and, once in the
 * head, the script that runs the ceremonies (see `browser-client.js`).
 *
 * Without JavaScript the form posts to `signin/<provider>`, which shows the
 * sign-in page again: passkeys need the script, the other providers do not.
 * @module
 */
import type { ResolvedWebAuthnProvider, SignInPageParams } from "../types.js"
import type { RequestContext } from "../../context.js"
import { html, unsafeRaw, type SafeHtml } from "../../pages/html.js"
import { actionUrl } from "../../http/urls.js"
import { fieldId, formField, hiddenFields } from "../../pages/form-fields.js"
import { webauthnClientScript } from "./client-script.generated.js"

/** Built once: the script is constant and some 15 kB long. */
const script = unsafeRaw(webauthnClientScript)

export function webauthnSection(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  params: SignInPageParams,
): SafeHtml {
  const fields = Object.entries(provider.formFields).map(([name, input]) =>
    formField(name, input, fieldId(name, provider.id), name === "email" ? params.email : undefined),
  )
  return html`<form class="provider" action="${actionUrl(ctx, "signin", provider.id)}" method="POST" data-webauthn-provider="${provider.id}" data-auth-url="${ctx.authUrl}"${provider.enableConditionalUI ? html` data-conditional-ui` : ""}>${hiddenFields(params)}${fields}<button type="submit">Sign in with ${provider.name}</button><p class="error" data-webauthn-error role="alert" hidden></p></form>`
}

/** The passkey script, once per page with a WebAuthn provider on it. */
export function webauthnHead(_ctx: RequestContext, nonce: string): SafeHtml {
  return html`<script nonce="${nonce}">${script}</script>`
}
