/**
 * The ID Token of a refresh answer (OpenID Connect Core §12.2). It is stored
 * on the account and later sent as RP-initiated logout's `id_token_hint`, so
 * it must be the same user's: the original's `iss`, `sub` and `aud`, an `iat`
 * of when it was issued, and a valid signature. oauth4webapi has checked `iss`
 * against the issuer, `aud`, `azp`, `exp` and the algorithm; it cannot know the
 * original `sub`, and checks no signature (TLS vouches for the token endpoint):
 * both are checked here, as the sign-in does.
 *
 * A token that fails refuses the whole refresh: a provider that answers for
 * someone else has no claim on the access token either.
 * @module
 */
import type * as o from "oauth4webapi"
import { decodeBase64url } from "../../lib/base64url.js"
import { isPlainObject } from "../../jwt/jwe.js"
import type { ResolvedOAuthProvider } from "../types.js"
import { verifyJwtResponseSignature } from "./tokens.js"

/** The oldest `iat` a refreshed ID Token may have (seconds): it is issued with the answer. */
const MAX_AGE = 600
const CLOCK_TOLERANCE = 15

/** The refreshed ID Token failed a check; the message names which, never the token. */
export class RefreshedIdTokenRefused extends Error {
  override name = "RefreshedIdTokenRefused"
}

/** The payload of a compact JWS that was validated when it was stored; undefined when unreadable. */
function storedClaims(jwt: string): Record<string, unknown> | undefined {
  try {
    const payload: unknown = JSON.parse(
      new TextDecoder().decode(decodeBase64url(jwt.split(".")[1] ?? "")),
    )
    return isPlainObject(payload) ? payload : undefined
  } catch {
    return undefined
  }
}

function audiences(aud: unknown): string[] {
  return (Array.isArray(aud) ? aud : [aud]).map(String).sort()
}

/**
 * Checks `idToken` (whose claims oauth4webapi validated from `response`) against the account's
 * `original` ID Token. Returns the token to store, or `null` when there is no original to
 * compare it with (it is then not stored). Throws `RefreshedIdTokenRefused`.
 */
export async function checkRefreshedIdToken(
  provider: ResolvedOAuthProvider,
  as: o.AuthorizationServer,
  response: Response,
  idToken: string,
  claims: Record<string, unknown>,
  original: string | null | undefined,
): Promise<string | null> {
  try {
    await verifyJwtResponseSignature(
      provider,
      as,
      response,
      idToken,
      "ID Token",
      provider.client?.id_token_signed_response_alg,
    )
  } catch (error) {
    // The provider's keys out of reach is a failed refresh, not a refused token.
    const name = (error as { name?: unknown }).name
    if (error instanceof TypeError || name === "AbortError" || name === "TimeoutError") throw error
    throw new RefreshedIdTokenRefused("its signature does not verify")
  }
  const iat = claims.iat
  const now = Math.floor(Date.now() / 1000)
  if (typeof iat !== "number" || iat < now - MAX_AGE - CLOCK_TOLERANCE)
    throw new RefreshedIdTokenRefused("its iat is not the time of the refresh")
  const before = original ? storedClaims(original) : undefined
  if (!before) return null
  if (claims.iss !== before.iss) throw new RefreshedIdTokenRefused("its iss differs")
  if (claims.sub !== before.sub) throw new RefreshedIdTokenRefused("its sub differs")
  if (JSON.stringify(audiences(claims.aud)) !== JSON.stringify(audiences(before.aud)))
    throw new RefreshedIdTokenRefused("its aud differs")
  return idToken
}
