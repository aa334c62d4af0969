/**
 * The passkey part of the built-in sign-in page: a form per WebAuthn provider
 * (its fields, by default an e-mail address, and a button) and, once in the
 * head, the script that runs the ceremonies (see `browser-client.js`).
 *
 * Without JavaScript the form posts to `signin/<provider>`, which shows the
 * sign-in page again: passkeys need the script, the other providers do not.
 * @module
 */
import type { InternalProvider } from "../../config/providers.js"
import type { RequestContext } from "../../context.js"
import { html, unsafeRaw, type SafeHtml } from "../../pages/html.js"
import type { SignInPageParams } from "../../pages/signin.js"
import type { CredentialInput } from "../../providers/credentials.js"
import { webauthnClientScript } from "./client-script.generated.js"
import type { NormalizedWebAuthnProvider } from "./normalize.js"

/** Built once: the script is constant and some 15 kB long. */
const headScript = unsafeRaw(`<script>${webauthnClientScript}</script>`)

function field(
  name: string,
  input: CredentialInput,
  id: string,
  prefill: string | undefined,
): SafeHtml {
  const { label, type = "text", value, placeholder, required, autocomplete } = input
  const shown = value ?? prefill
  return html`<label for="${id}">${label ?? name}</label><input id="${id}" name="${name}" type="${type}"${shown !== undefined ? html` value="${shown}"` : ""}${placeholder ? html` placeholder="${placeholder}"` : ""}${required ? html` required` : ""}${autocomplete ? html` autocomplete="${autocomplete}"` : ""}>`
}

export function webauthnSection(
  ctx: RequestContext,
  internal: InternalProvider<"webauthn">,
  params: SignInPageParams,
): SafeHtml {
  const provider = internal as NormalizedWebAuthnProvider
  const fields = Object.entries(provider.formFields).map(([name, input]) =>
    field(
      name,
      input,
      `input-${name}-for-${provider.id}-provider`,
      name === "email" ? params.email : undefined,
    ),
  )
  return html`<form class="provider" action="${ctx.authUrl}/signin/${provider.id}" method="POST" data-webauthn-provider="${provider.id}" data-auth-url="${ctx.authUrl}"${provider.enableConditionalUI ? html` data-conditional-ui` : ""}><input type="hidden" name="csrfToken" value="${params.csrfToken}"><input type="hidden" name="callbackUrl" value="${params.callbackUrl}">${fields}<button type="submit">Sign in with ${provider.name}</button><p class="error" data-webauthn-error role="alert" hidden></p></form>`
}

/** The passkey script, when the configuration has a WebAuthn provider. */
export function webauthnHead(ctx: RequestContext): SafeHtml | string {
  return ctx.config.providers.some((provider) => provider.type === "webauthn") ? headScript : ""
}
