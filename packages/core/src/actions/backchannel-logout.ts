/**
 * POST backchannel-logout/<provider>: an OpenID provider ends sessions
 * (OpenID Connect Back-Channel Logout 1.0). Server to server: no CSRF token,
 * no cookies. The logout token is verified (`flows/oauth/backchannel-logout.ts`),
 * then the sessions it names end: the one the provider's `sid` was stored with
 * at sign-in, or, for `sub` alone, every session of that provider account;
 * either way with its user's sessions of unknown origin (made under Auth.js,
 * which recorded no provider session; `revokeUnknownOriginSessions`).
 *
 * 200 on success; 400 `{ error: "invalid_request" }` otherwise; both with
 * `Cache-Control: no-store`, as the spec requires.
 * @module
 */
import type { RequestContext } from "../context.js"
import { AuthError, InvalidRequest, OAuthProviderError } from "../errors.js"
import { callAdapter } from "../lib/adapter.js"
import {
  InvalidLogoutToken,
  verifyLogoutToken,
  type LogoutSubject,
} from "../flows/oauth/backchannel-logout.js"
import { revokeSessions, revokeUnknownOriginSessions } from "../session/records.js"
import type { ResponseInternal } from "../types.js"
import { notImplemented } from "./sessions.js"

const headers = { "Cache-Control": "no-store" }

function refuse(ctx: RequestContext, description: string): ResponseInternal {
  const failure = new InvalidRequest(`Back-channel logout refused: ${description}`)
  ctx.config.logger.debug(`${failure.type}: ${failure.message}`, {
    type: failure.type,
    error: failure,
  })
  return {
    status: 400,
    headers,
    body: { error: "invalid_request", error_description: description },
  }
}

export async function backchannelLogout(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = ctx.flow!.provider
  if (provider.type !== "oidc" || provider.backchannelLogout === false) {
    return refuse(ctx, "This provider does not use back-channel logout here")
  }
  const missing = notImplemented(ctx)
  if (missing) return { ...missing, headers }
  const token: unknown = ctx.request.body?.logout_token
  if (typeof token !== "string" || token.length === 0 || token.length > 16_384) {
    return refuse(ctx, "logout_token is missing")
  }
  let subject
  try {
    subject = await verifyLogoutToken(ctx, provider, token)
  } catch (error) {
    if (error instanceof InvalidLogoutToken) return refuse(ctx, error.message)
    // A server fault (the provider's metadata or keys out of reach, the database): logged with a type.
    ctx.config.logger.error(
      error instanceof AuthError
        ? error
        : new OAuthProviderError(
            `Provider "${provider.id}": the logout token could not be checked`,
            { cause: { err: error, provider: provider.id } },
          ),
    )
    return {
      status: 400,
      headers,
      body: {
        error: "invalid_request",
        error_description: "The logout token could not be checked",
      },
    }
  }
  const ended = await revokeSessions(
    ctx,
    {
      provider: provider.id,
      ...(subject.sid ? { providerSessionId: subject.sid } : {}),
      ...(subject.sub ? { providerAccountId: subject.sub } : {}),
    },
    "backchannel-logout",
  )
  // The user's sessions Tessera cannot tell the provider session of (made under Auth.js, which
  // kept none: an adopted cookie, an imported database session) may be the one that ended,
  // whether the provider ended one session (`sid`) or all (`sub`): they end too.
  for (const userId of await usersNamed(ctx, provider.id, subject, ended)) {
    await revokeUnknownOriginSessions(ctx, userId, "backchannel-logout")
  }
  return { status: 200, headers }
}

/**
 * The users a logout token names: the one whose account is `sub`, else (`sid` alone) those
 * whose sessions it just ended. A `sid` that named no session here ties to no user: their
 * sessions of unknown origin stay (docs/sessions.md).
 */
async function usersNamed(
  ctx: RequestContext,
  provider: string,
  subject: LogoutSubject,
  ended: { userId: string }[],
): Promise<Set<string>> {
  if (subject.sub) {
    const user = await callAdapter(ctx.config, "getUserByAccount", {
      provider,
      providerAccountId: subject.sub,
    })
    return new Set(user ? [user.id] : [])
  }
  return new Set(ended.map((record) => record.userId))
}
