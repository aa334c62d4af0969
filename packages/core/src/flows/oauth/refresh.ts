/**
 * One refresh of an access token (RFC 6749 §6): the refresh grant at the
 * provider's token endpoint through oauth4webapi (or the provider's own
 * `tokenRefresh.request`), validated like any token response. A provider
 * that sends no new refresh token keeps the old one (most do not rotate);
 * `expires_in` becomes `expires_at`. A refused refresh token (`invalid_grant`)
 * is a `RefreshTokenError`; any other failure (the provider unreachable, a
 * malformed answer) an `OAuthProviderError`, leaving the stored tokens alone,
 * whose cause is a summary: never the answer, which may hold new tokens.
 *
 * An ID Token in the answer is checked against the account's (`original`;
 * `refresh-id-token.ts`): one for another user, issuer or audience, stale, or
 * with a bad signature refuses the refresh (an `OAuthProviderError`, the
 * warning `refresh-id-token-refused`); without an original to compare with,
 * or from a provider's own `tokenRefresh.request`, it is not kept.
 * @module
 */
import * as o from "oauth4webapi"
import { OAuthProviderError, RefreshTokenError } from "../../errors.js"
import type { ResolvedConfig } from "../../config/resolve.js"
import type { TokenSet } from "../../types.js"
import type { ResolvedOAuthProvider } from "../types.js"
import { oauthClient } from "./client.js"
import { summary } from "./failures.js"
import { malformedTokenField } from "../../lib/control-characters.js"
import { authorizationServer } from "./discovery.js"
import { expiresAtOf } from "./expiry.js"
import { httpOptions, providerFetch } from "./http.js"
import { checkRefreshedIdToken, RefreshedIdTokenRefused } from "./refresh-id-token.js"

/** The tokens a refresh yields: what an account stores. */
export interface RefreshedTokens {
  access_token: string
  refresh_token: string
  expires_at: number | null
  scope: string | null
  token_type: string | null
  id_token: string | null
}

/**
 * @param original The account's ID Token, from its sign-in or last refresh: a refreshed one must
 *   name the same user (`null` or left out: none is kept).
 */
export async function refreshTokens(
  config: Pick<ResolvedConfig, "oauth" | "logger">,
  provider: ResolvedOAuthProvider,
  refreshToken: string,
  original?: string | null,
): Promise<RefreshedTokens> {
  let tokens: TokenSet
  let idToken: string | null = null
  try {
    const answer = await request(config, provider, refreshToken)
    tokens = answer.tokens
    if (answer.processed && typeof tokens.id_token === "string") {
      const { as, response } = answer.processed
      const claims = o.getValidatedIdTokenClaims(tokens as o.TokenEndpointResponse)!
      idToken = await checkRefreshedIdToken(
        provider,
        as,
        response,
        tokens.id_token,
        claims,
        original,
      )
    }
  } catch (error) {
    if (error instanceof o.ResponseBodyError && error.error === "invalid_grant") {
      throw new RefreshTokenError(`Provider "${provider.id}" refused the refresh token`)
    }
    if (error instanceof RefreshTokenError) throw error
    if (error instanceof RefreshedIdTokenRefused) {
      // The provider answered for someone else (or not verifiably): nothing of it is kept.
      config.logger.warn("refresh-id-token-refused")
      throw new OAuthProviderError(
        `Provider "${provider.id}": the refresh answer's ID Token was refused: ${error.message}`,
      )
    }
    // oauth4webapi's errors hold the whole answer (the new tokens, when it was refused): a summary only.
    throw new OAuthProviderError(`Provider "${provider.id}": the token refresh failed`, {
      cause: { err: error instanceof Error ? summary(error) : new Error(String(error)) },
    })
  }
  if (typeof tokens.access_token !== "string" || !tokens.access_token) {
    throw new OAuthProviderError(`Provider "${provider.id}": the refresh returned no access token`)
  }
  // Nothing of it stored: a token with a control character (U+0000 fails PostgreSQL's write).
  const malformed = malformedTokenField(tokens, false)
  if (malformed)
    throw new OAuthProviderError(
      `Provider "${provider.id}": the refresh answer's ${malformed} has a control character`,
    )
  return {
    access_token: tokens.access_token,
    // No new refresh token: the provider does not rotate them, and the old one stays good.
    refresh_token: typeof tokens.refresh_token === "string" ? tokens.refresh_token : refreshToken,
    // Some providers send the lifetime as a string ("3600").
    expires_at: expiresAtOf(Number(tokens.expires_in)) ?? null,
    scope: typeof tokens.scope === "string" ? tokens.scope : null,
    token_type: typeof tokens.token_type === "string" ? tokens.token_type.toLowerCase() : null,
    id_token: idToken,
  }
}

/**
 * The refresh answer; `processed` when oauth4webapi processed it from the token endpoint's
 * response (a provider's own `tokenRefresh.request` returns bare tokens, whose ID Token cannot
 * be checked).
 */
async function request(
  config: Pick<ResolvedConfig, "oauth">,
  provider: ResolvedOAuthProvider,
  refreshToken: string,
): Promise<{
  tokens: TokenSet
  processed?: { as: o.AuthorizationServer; response: Response }
}> {
  const handler = typeof provider.tokenRefresh === "object" ? provider.tokenRefresh : undefined
  if (handler?.request) {
    const tokens = await handler.request({ refreshToken, provider, fetch: providerFetch(provider) })
    if ((tokens as { error?: unknown }).error === "invalid_grant")
      throw new RefreshTokenError(`Provider "${provider.id}" refused the refresh token`)
    return { tokens }
  }
  const as = await authorizationServer(config, provider)
  const { client, clientAuth } = oauthClient(config, provider)
  const response = await o.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, {
    ...httpOptions(provider),
    additionalParameters: handler?.params ?? {},
  })
  const tokens = await o.processRefreshTokenResponse(as, client, response)
  return { tokens, processed: { as, response } }
}
