/**
 * GET callback/<email provider>?token=...&email=...: the link from the e-mail.
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
import { signInPageUrl } from "../../http/urls.js"
import { callAdapter } from "../../lib/adapter.js"
import { renderErrorPage } from "../../pages/error.js"
import { pageContextOf } from "../../pages/page-context.js"
import { completeSignIn } from "../sign-in/complete.js"
import { emailSignInUser } from "../sign-in/email-identity.js"
import { persistEmail } from "./persist.js"
import type { ResponseInternal } from "../../types.js"
import { hashVerificationToken, isWellFormedToken, tokenSecrets } from "./token.js"

/** An identifier from the link: what `normalizeIdentifier` could have produced, bounded. */
const IDENTIFIER = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]{1,320}$/

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
  for (const secret of tokenSecrets(ctx.config, provider)) {
    const hashed = await hashVerificationToken(secret, token)
    const found = await callAdapter(ctx.config, "useVerificationToken", {
      identifier,
      token: hashed,
    })
    if (found) return found
  }
  return null
}

export async function emailCallback(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
): Promise<ResponseInternal> {
  const { token, identifier } = linkParams(ctx)
  if (!isWellFormedToken(token) || typeof identifier !== "string" || !IDENTIFIER.test(identifier))
    return malformedLink(ctx)

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
  // The URL held a credential: keep it out of caches and out of the next page's Referer.
  return { ...result, headers: { ...noStoreHeaders, "Referrer-Policy": "no-referrer" } }
}
