/**
 * POST signin/<email provider>: mails a single-use sign-in link, a one-time
 * code, or both (the provider's `method`).
 *
 * The address is normalized (and refused before anything else happens if it is
 * not a plain address); the `signIn` callback is asked with
 * `email.verificationRequest: true`, as in Auth.js, so an app can refuse to mail
 * strangers; the token's keyed hash is stored *before* the mail goes out, so a
 * database failure never leaves a user holding a dead link.
 * @module
 */
import type { ResolvedEmailProvider } from "../types.js"
import type { RequestContext } from "../../context.js"
import { actionUrl } from "../../http/urls.js"
import { EmailDeliveryError, EmailSignInError, InvalidConfiguration } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"
import { translatorFor } from "../../pages/i18n/translator.js"
import { resolveCallbackUrl } from "../../lib/callback-url.js"
import type { ResponseInternal } from "../../types.js"
import { emailSignInUser } from "../sign-in/email-identity.js"
import { askSignIn } from "../sign-in/verdict.js"
import { boundedSend } from "./bounded-send.js"
import { CODE_MAX_AGE, generateCode, storeCode } from "./code.js"
import { hashVerificationToken, isWellFormedToken, tokenKeys } from "./token.js"

/**
 * The longest identifier stored: an address's 64 + 1 + 255 (RFC 5321 §4.5.3.1). An app's own
 * `normalizeIdentifier` may not bound it, and the identifier is stored as given, in the primary
 * key of the verification tokens: tens of kilobytes of it failed PostgreSQL's index row limit,
 * a server fault any client could repeat.
 */
const MAX_IDENTIFIER = 320

/** The provider's `normalizeIdentifier`, with any failure turned into `EmailSignInError` (never quoting the input). */
export function normalizeIdentifier(provider: ResolvedEmailProvider, input: unknown): string {
  let identifier: unknown
  try {
    if (typeof input !== "string") throw new TypeError("The e-mail address is missing")
    identifier = provider.normalizeIdentifier(input)
  } catch (error) {
    throw new EmailSignInError("Invalid e-mail address", {
      cause: { err: error, provider: provider.id },
    })
  }
  if (typeof identifier !== "string" || identifier === "") {
    throw new EmailSignInError("normalizeIdentifier did not return an address", {
      cause: { provider: provider.id },
    })
  }
  if (identifier.length > MAX_IDENTIFIER) {
    throw new EmailSignInError("The e-mail address is too long", {
      cause: { provider: provider.id },
    })
  }
  return identifier
}

export async function startEmailSignIn(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
): Promise<ResponseInternal> {
  const { config } = ctx
  const identifier = normalizeIdentifier(provider, ctx.request.body?.email)

  const user = await emailSignInUser(ctx, identifier)
  const account = {
    providerAccountId: identifier,
    userId: user.id,
    type: "email" as const,
    provider: provider.id,
  }
  const elsewhere = await askSignIn(ctx, { user, account, email: { verificationRequest: true } })
  if (elsewhere) return elsewhere

  const callbackUrl = await resolveCallbackUrl(ctx)
  const callback = actionUrl(ctx, "callback", provider.id)
  const verifyRequest = (extra: Record<string, string> = {}) =>
    actionUrl(ctx, "verify-request", undefined, {
      provider: provider.id,
      type: provider.type,
      ...extra,
    })
  let mail: { token: string; code?: string; url: string; expires: Date; undo(): Promise<void> }
  if (provider.method === "link") {
    const token = await provider.generateVerificationToken()
    if (!isWellFormedToken(token)) {
      throw new InvalidConfiguration(
        `generateVerificationToken of "${provider.id}" must return 1 to 512 printable ASCII characters`,
      )
    }
    const expires = new Date(Date.now() + provider.maxAge * 1000)
    const hashed = await hashVerificationToken(tokenKeys(config, provider), token)
    await callAdapter(config, "createVerificationToken", { identifier, token: hashed, expires })
    mail = {
      token,
      expires,
      url: `${callback}?${new URLSearchParams({ callbackUrl, token, email: identifier })}`,
      undo: async () => {
        await Promise.resolve(
          config.adapter!.useVerificationToken!({ identifier, token: hashed }),
        ).catch(() => undefined)
      },
    }
  } else {
    const code = generateCode()
    const expires = new Date(Date.now() + CODE_MAX_AGE * 1000)
    const undo = await storeCode(ctx, provider, identifier, code, expires)
    // "both": the link carries the code, so either way it is the one secret, checked the same way.
    const url =
      provider.method === "both"
        ? `${callback}?${new URLSearchParams({ callbackUrl, email: identifier, code })}`
        : verifyRequest({ email: identifier })
    mail = { token: code, code, url, expires, undo }
  }

  const request =
    ctx.original ?? new Request(ctx.request.url, { method: "POST", headers: ctx.request.headers })
  // The mail is written in the language of the page that asked for it.
  const t = await translatorFor(config.localization, ctx.request.headers.get("accept-language"))
  const theme = {
    ...config.theme,
    locale: t.locale,
    messages: { ...config.theme.messages, [t.locale]: t.messages },
  }
  // As Auth.js hands over its internal provider: with the URLs `/auth/providers` lists.
  const withListedUrls = {
    ...provider,
    signinUrl: actionUrl(ctx, "signin", provider.id),
    callbackUrl: callback,
  }
  try {
    await boundedSend(provider.id, provider.sendTimeout, () =>
      provider.sendVerificationRequest({
        identifier,
        token: mail.token,
        ...(mail.code !== undefined ? { code: mail.code } : {}),
        expires: mail.expires,
        url: mail.url,
        provider: withListedUrls,
        theme,
        request,
      }),
    )
  } catch (error) {
    // The link or code will never arrive: take it out again (best effort; it expires anyway).
    // Past the bound the mail may still go out late; its link is dead then, as the user
    // was told the sign-in failed (following it ends at error=Verification, not signed in).
    await mail.undo()
    throw new EmailDeliveryError("The sign-in e-mail could not be sent", {
      cause: { err: error, provider: provider.id },
    })
  }

  // With a code, the page asks for it, and needs the address to check it against.
  return { redirect: verifyRequest(provider.method === "link" ? {} : { email: identifier }) }
}
