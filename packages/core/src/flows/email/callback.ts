/**
 * callback/<email provider>: the link from the e-mail (GET
 * `?token=...&email=...`), or a one-time code (POST `email`, `code` and the
 * CSRF token from the code form; or GET `?email=...&code=...`, the link of
 * `method: "both"`). With `confirmLink`, a GET only shows a confirmation page
 * whose form posts the same fields: mail scanners that open links consume
 * nothing.
 *
 * The token is consumed by `useVerificationToken`, which returns and deletes
 * the row in one step: of two clicks racing, exactly one gets it. A link that
 * was used, has expired or never existed ends on the error page with
 * `error=Verification`. A link that cannot be one of ours (no token, a
 * malformed one) is answered 400 at once, with no database query.
 * @module
 */
import type { ResolvedEmailProvider } from "../types.js"
import type { RequestContext } from "../../context.js"
import { Verification } from "../../errors.js"
import { noStoreHeaders } from "../../http/response.js"
import { ensureCsrfToken } from "../../http/csrf.js"
import { actionUrl, signInPageUrl } from "../../http/urls.js"
import { callAdapter } from "../../lib/adapter.js"
import { resolveCallbackUrl } from "../../lib/callback-url.js"
import { renderConfirmLinkPage } from "../../pages/confirm-link.js"
import { renderErrorPage } from "../../pages/error.js"
import { pageContextOf } from "../../pages/page-context.js"
import { completeSignIn } from "../sign-in/complete.js"
import { emailSignInUser } from "../sign-in/email-identity.js"
import { persistEmail } from "./persist.js"
import type { ResponseInternal } from "../../types.js"
import { consumeCode, readCode } from "./code.js"
import { codeFields, IDENTIFIER } from "./failure.js"
import { normalizeIdentifier } from "./signin.js"
import { hashVerificationToken, isWellFormedToken, tokenKeys } from "./token.js"

/** An identifier from the link: what `normalizeIdentifier` could have produced, bounded. */

/** The link's parameters, from the query (a GET from the mail) or a form body (an app's own confirm page). */
function linkParams(ctx: RequestContext): { token: unknown; identifier: unknown } {
  const { query, body } = ctx.request
  return { token: query.token ?? body?.token, identifier: query.email ?? body?.email }
}

/** The built-in error page, answered directly with 400: a malformed link is a client error, not a server one. */
async function malformedLink(ctx: RequestContext): Promise<ResponseInternal> {
  ctx.config.logger.debug("Malformed e-mail sign-in link", { provider: ctx.flow?.provider.id })
  const links = { signIn: signInPageUrl(ctx), home: `${ctx.origin}/` }
  const page = renderErrorPage(await pageContextOf(ctx), links, "Verification")
  // This page's own URL holds the (malformed) token: no Referer at all.
  return { ...page, status: 400, headers: { ...page.headers, "Referrer-Policy": "no-referrer" } }
}

/** Consumes the token, trying each secret it may have been hashed with (rotation). */
async function consume(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
  identifier: string,
  token: string,
) {
  const keys = tokenKeys(ctx.config, provider)
  for (let index = 0; index < keys.secrets.length; index++) {
    const hashed = await hashVerificationToken(keys, token, index)
    const found = await callAdapter(ctx.config, "useVerificationToken", {
      identifier,
      token: hashed,
    })
    if (found) return found
  }
  return null
}

/** Signs in the owner of `identifier`, whom the link or code just proved. */
async function signInAddress(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
  identifier: string,
): Promise<ResponseInternal> {
  const user = await emailSignInUser(ctx, identifier)
  const result = await completeSignIn(
    ctx,
    {
      user,
      account: {
        providerAccountId: identifier,
        userId: user.id,
        type: "email",
        provider: provider.id,
      },
    },
    persistEmail,
  )
  // The URL may have held a credential: keep it out of caches and out of the next page's Referer.
  return { ...result, headers: { ...noStoreHeaders, "Referrer-Policy": "no-referrer" } }
}

/**
 * The confirmation page a link opens with `confirmLink`: nothing is consumed
 * until its form is posted, which mail scanners that open links do not do.
 */
async function confirmation(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
  identifier: string,
  proof: { token: string } | { code: string },
): Promise<ResponseInternal> {
  const csrfToken = await ensureCsrfToken(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx)
  return renderConfirmLinkPage(ctx, await pageContextOf(ctx), {
    action: actionUrl(ctx, "callback", provider.id),
    email: identifier,
    csrfToken,
    callbackUrl,
    fields: proof,
  })
}

/** A posted (or linked) one-time code. */
async function codeCallback(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
  fields: Record<string, unknown>,
): Promise<ResponseInternal> {
  if (provider.method === "link") return malformedLink(ctx)
  const code = readCode(fields.code)
  let identifier: string
  try {
    identifier = normalizeIdentifier(provider, fields.email)
  } catch {
    throw new Verification("The code form's e-mail address is not valid")
  }
  if (code === undefined) throw new Verification("The code is not 8 digits")
  // Only "both" mails a link carrying the code. With "code" a GET is nobody's link but a page
  // of the attacker's, sending their own code past the CSRF-checked form (login CSRF).
  if (ctx.request.method === "GET" && provider.method !== "both") {
    throw new Verification("A code is accepted only from the code form")
  }
  if (ctx.request.method === "GET" && provider.confirmLink) {
    return confirmation(ctx, provider, identifier, { code })
  }
  await consumeCode(ctx, provider, identifier, code)
  return signInAddress(ctx, provider, identifier)
}

export async function emailCallback(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
): Promise<ResponseInternal> {
  const fields = codeFields(ctx)
  if (fields.code !== undefined) return codeCallback(ctx, provider, fields)

  const { token, identifier } = linkParams(ctx)
  if (!isWellFormedToken(token) || typeof identifier !== "string" || !IDENTIFIER.test(identifier))
    return malformedLink(ctx)
  if (ctx.request.method === "GET" && provider.confirmLink) {
    return confirmation(ctx, provider, identifier, { token })
  }

  const invite = await consume(ctx, provider, identifier, token)
  if (!invite)
    throw new Verification("The sign-in link is unknown or was already used", {
      cause: { provider: provider.id },
    })
  if (invite.expires.valueOf() <= Date.now()) {
    throw new Verification("The sign-in link has expired", { cause: { provider: provider.id } })
  }
  // Cheap insurance against an adapter that matches loosely (case-folding collations).
  if (invite.identifier !== identifier)
    throw new Verification("The sign-in link does not match its address")
  return signInAddress(ctx, provider, identifier)
}
