/**
 * The built-in sign-in page: one section per provider, in configuration order.
 * @module
 */
import type { InternalProvider } from "../config/providers.js"
import type { RequestContext } from "../context.js"
import type { CredentialInput } from "../providers/credentials.js"
import { html, type SafeHtml } from "./html.js"
import { cssColor, renderDocument } from "./layout.js"
import { signInErrorMessages } from "./messages.js"
import { webauthnSection, webauthnHead } from "../flows/webauthn/page.js"

export interface SignInPageParams {
  csrfToken: string
  callbackUrl: string
  error?: string
  email?: string
}

function hidden(params: SignInPageParams): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${params.csrfToken}"><input type="hidden" name="callbackUrl" value="${params.callbackUrl}">`
}

function oauthSection(
  ctx: RequestContext,
  provider: InternalProvider<"oauth" | "oidc">,
  params: SignInPageParams,
): SafeHtml {
  const style = provider.style ?? {}
  const brand = style.brandColor ?? style.bg
  return html`<form class="provider" action="${ctx.authUrl}/signin/${provider.id}" method="POST">${hidden(params)}<button type="submit"${brand ? html` style="--provider-bg:${cssColor(brand)}"` : ""}>${style.logo ? html`<img class="provider-logo" src="${style.logo}" alt="">` : ""}<span>Sign in with ${provider.name}</span></button></form>`
}

function fieldInput(name: string, field: CredentialInput, id: string): SafeHtml {
  const { label, type = "text", value, placeholder, required, autocomplete, ...extra } = field
  const attributes = Object.entries(extra)
    .filter(
      ([key, v]) =>
        /^[a-z][a-z0-9-]*$/i.test(key) &&
        (typeof v === "string" || typeof v === "number" || v === true),
    )
    .map(([key, v]) => (v === true ? html` ${key}` : html` ${key}="${String(v)}"`))
  return html`<label for="${id}">${label ?? name}</label><input id="${id}" name="${name}" type="${type}"${value !== undefined ? html` value="${value}"` : ""}${placeholder ? html` placeholder="${placeholder}"` : ""}${required ? html` required` : ""}${autocomplete ? html` autocomplete="${autocomplete}"` : ""}${attributes}>`
}

function credentialsSection(
  ctx: RequestContext,
  provider: InternalProvider<"credentials">,
  params: SignInPageParams,
): SafeHtml {
  const fields = Object.entries(provider.credentials ?? {}).map(([name, field]) =>
    fieldInput(name, field as CredentialInput, `input-${name}-for-${provider.id}-provider`),
  )
  return html`<form class="provider" action="${ctx.authUrl}/callback/${provider.id}" method="POST">${hidden(params)}${fields}<button type="submit">Sign in with ${provider.name}</button></form>`
}

function emailSection(
  ctx: RequestContext,
  provider: InternalProvider<"email">,
  params: SignInPageParams,
): SafeHtml {
  const conditional = ctx.config.providers.some(
    (p) => p.type === "webauthn" && (p as { enableConditionalUI?: boolean }).enableConditionalUI,
  )
  const id = `input-email-for-${provider.id}-provider`
  return html`<form class="provider" action="${ctx.authUrl}/signin/${provider.id}" method="POST">${hidden(params)}<label for="${id}">Email</label><input id="${id}" type="email" name="email" placeholder="email@example.com" required autocomplete="${conditional ? "username webauthn" : "email"}"${params.email ? html` value="${params.email}"` : ""}><button type="submit">Sign in with ${provider.name}</button></form>`
}

function section(
  ctx: RequestContext,
  provider: InternalProvider,
  params: SignInPageParams,
): SafeHtml {
  switch (provider.type) {
    case "oauth":
    case "oidc":
      return oauthSection(ctx, provider as InternalProvider<"oauth" | "oidc">, params)
    case "credentials":
      return credentialsSection(ctx, provider as InternalProvider<"credentials">, params)
    case "email":
      return emailSection(ctx, provider as InternalProvider<"email">, params)
    case "webauthn":
      return webauthnSection(ctx, provider as InternalProvider<"webauthn">, params)
  }
}

export function renderSignInPage(ctx: RequestContext, params: SignInPageParams): string {
  const { providers, theme } = ctx.config
  // Own keys only: `?error=toString` must not find Object.prototype's.
  const message = params.error
    ? Object.hasOwn(signInErrorMessages, params.error)
      ? signInErrorMessages[params.error]
      : signInErrorMessages.default
    : undefined
  const sections = providers.map((provider, i) => {
    // A rule between a form with fields and its neighbours, as users expect.
    const separate =
      i > 0 &&
      ((provider.type !== "oauth" && provider.type !== "oidc") ||
        (providers[i - 1]!.type !== "oauth" && providers[i - 1]!.type !== "oidc"))
    return html`${separate ? html`<hr>` : ""}${section(ctx, provider, params)}`
  })
  const body = html`<h1>Sign in</h1>${message ? html`<div class="error" role="alert">${message}</div>` : ""}${sections}`
  return renderDocument(theme, "Sign In", body, webauthnHead(ctx))
}
