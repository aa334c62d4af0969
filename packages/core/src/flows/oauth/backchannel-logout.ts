/**
 * OpenID Connect Back-Channel Logout 1.0, the relying party's side: the
 * provider POSTs a `logout_token` (a signed JWT) to
 * `<basePath>/backchannel-logout/<provider>` when a user's session there ends.
 *
 * The token is checked as the spec's §2.6 says: signature against the
 * provider's JWKS (or, for `HS*` when the app registered it, the client
 * secret), `iss`, `aud` (this client), `iat` (never older than ten minutes)
 * and `exp` (REQUIRED by the final spec, §2.4; the draft Tessera first
 * followed had it optional),
 * `jti` used once, the `events` member for back-channel logout, `sid` and/or
 * `sub`, and no `nonce` (so an ID Token cannot pass for a logout token).
 * `jti`s are remembered through the adapter's verification tokens: inserting
 * one twice fails, so a replay is refused even across processes.
 *
 * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#Validation
 * @module
 */
import {
  createRemoteJWKSet,
  customFetch as joseCustomFetch,
  decodeProtectedHeader,
  jwtVerify,
  type JWTPayload,
} from "jose"
import type { RequestContext } from "../../context.js"
import { callAdapter } from "../../lib/adapter.js"
import { hasControlCharacter } from "../../lib/control-characters.js"
import { sha256Hex } from "../../lib/crypto.js"
import type { ResolvedOAuthProvider } from "../types.js"
import { oauthCacheOf } from "./cache.js"
import { authorizationServer } from "./discovery.js"
import { providerFetch } from "./http.js"
import { HTTP_TIMEOUT_MS } from "../../lib/http-timeout.js"

export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout"

/** The oldest logout token accepted, by `iat` (seconds). */
const MAX_TOKEN_AGE = 600
const CLOCK_TOLERANCE = 15
/** How long a used `jti` is kept past the last moment its token could pass (seconds). */
const JTI_KEPT_MARGIN = 60

/** A logout token that failed a check; its message is fit for `error_description`. */
export class InvalidLogoutToken extends Error {
  override name = "InvalidLogoutToken"
}

/** Who the provider logged out: its session (`sid`), or every session of its user (`sub`). */
export interface LogoutSubject {
  sub?: string
  sid?: string
}

type KeySet = ReturnType<typeof createRemoteJWKSet>

/**
 * jose's remote key set for `provider`, kept on the configuration (`cache.ts`): keys cached,
 * refetched (with a cooldown) for a new `kid`.
 */
function keySetOf(ctx: RequestContext, provider: ResolvedOAuthProvider, jwksUri: string): KeySet {
  const cache = oauthCacheOf(ctx.config, provider)
  if (cache.logoutKeys?.url === jwksUri) return cache.logoutKeys.keys
  const keys = createRemoteJWKSet(new URL(jwksUri), {
    [joseCustomFetch]: providerFetch(provider),
    // jose bounds the fetch itself (5 s by default): the same bound as every other request.
    timeoutDuration: HTTP_TIMEOUT_MS,
  })
  cache.logoutKeys = { url: jwksUri, keys }
  return keys
}

/**
 * The algorithms the provider signs this client's ID Tokens (and so its logout
 * tokens) with: the one the client registered (`client.id_token_signed_response_alg`),
 * else the asymmetric ones the provider lists, verified against its JWKS.
 * A MAC (`HS*`, keyed with the client secret) only when the app registered it:
 * discovery lists what the provider can do for some client (Keycloak and Auth0
 * list HS256), not what it does for this one (OpenID Connect Core §3.1.3.7:
 * RS256, or the registered algorithm). Otherwise whoever learnt the client
 * secret (it travels with every token request) could forge logout tokens.
 */
function algorithmsOf(provider: ResolvedOAuthProvider, supported: string[] | undefined): string[] {
  const configured = provider.client?.id_token_signed_response_alg
  if (configured) {
    const usable =
      configured !== "none" && (!configured.startsWith("HS") || !!provider.clientSecret)
    return usable ? [configured] : []
  }
  return (supported ?? ["RS256"]).filter((alg) => alg !== "none" && !alg.startsWith("HS"))
}

/** Verifies `token` for `provider`; throws `InvalidLogoutToken` (or a server fault). */
export async function verifyLogoutToken(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
  token: string,
): Promise<LogoutSubject> {
  const as = await authorizationServer(ctx.config, provider)
  let alg: unknown
  try {
    alg = decodeProtectedHeader(token).alg
  } catch {
    throw new InvalidLogoutToken("The logout token is not a JWT")
  }
  const algorithms = algorithmsOf(provider, as.id_token_signing_alg_values_supported)
  if (typeof alg !== "string" || !algorithms.includes(alg)) {
    throw new InvalidLogoutToken("The logout token is not signed with an expected algorithm")
  }
  let payload: JWTPayload
  try {
    const options = {
      issuer: as.issuer,
      audience: provider.clientId!,
      algorithms,
      clockTolerance: CLOCK_TOLERANCE,
      maxTokenAge: MAX_TOKEN_AGE,
      requiredClaims: ["iat", "exp", "jti"],
    }
    if (alg.startsWith("HS")) {
      const secret = new TextEncoder().encode(provider.clientSecret)
      payload = (await jwtVerify(token, secret, options)).payload
    } else {
      if (!as.jwks_uri) throw new TypeError(`Provider "${provider.id}" has no jwks_uri`)
      payload = (await jwtVerify(token, keySetOf(ctx, provider, as.jwks_uri), options)).payload
    }
  } catch (error) {
    // A JWKS that cannot be fetched is a server fault; everything else is the token's.
    if (error instanceof TypeError || (error as { code?: string }).code === "ERR_JWKS_TIMEOUT")
      throw error
    const { claim, reason } = error as { claim?: string; reason?: string }
    if (claim === "exp" && reason === "missing")
      throw new InvalidLogoutToken("The logout token has no exp")
    throw new InvalidLogoutToken("The logout token failed verification")
  }
  const { events, sub, sid, jti, nonce } = payload as JWTPayload & Record<string, unknown>
  if (
    !events ||
    typeof events !== "object" ||
    Array.isArray(events) ||
    !Object.hasOwn(events, BACKCHANNEL_LOGOUT_EVENT) ||
    typeof (events as Record<string, unknown>)[BACKCHANNEL_LOGOUT_EVENT] !== "object"
  ) {
    throw new InvalidLogoutToken("The logout token has no back-channel logout event")
  }
  if (nonce !== undefined) throw new InvalidLogoutToken("A logout token must not have a nonce")
  // Identifiers, never text: a control character (U+0000 above all, which PostgreSQL text
  // refuses) would only reach the database to fail there.
  if ([sub, sid, jti].some(hasControlCharacter))
    throw new InvalidLogoutToken("The logout token's sub, sid or jti has a control character")
  const subject: LogoutSubject = {}
  if (typeof sub === "string" && sub) subject.sub = sub
  if (typeof sid === "string" && sid) subject.sid = sid
  if (!subject.sub && !subject.sid)
    throw new InvalidLogoutToken("The logout token has no sub or sid")
  if (typeof jti !== "string" || !jti) throw new InvalidLogoutToken("The logout token has no jti")
  await useJti(ctx, provider, as.issuer, jti, payload)
  return subject
}

/**
 * Records `jti` as used, through the adapter's verification tokens (hashed,
 * kept until the token could no longer be accepted anyway). The insert fails
 * for a `jti` seen before: that is a replay.
 */
async function useJti(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
  issuer: string,
  jti: string,
  payload: JWTPayload,
): Promise<void> {
  // The last second the token could pass (jose counts whole seconds: `iat` + 600 + 15
  // still passes at +615.9 s), and a margin: a purge of expired rows must never free a
  // `jti` while its token is still accepted, or the same token ends sessions again.
  const until = Math.max((payload.iat ?? 0) + MAX_TOKEN_AGE, payload.exp ?? 0) + JTI_KEPT_MARGIN
  const identifier = `tessera:backchannel-logout:${provider.id}`
  const token = await sha256Hex(`${issuer} ${jti}`)
  try {
    await callAdapter(ctx.config, "createVerificationToken", {
      identifier,
      token,
      expires: new Date((until + CLOCK_TOLERANCE) * 1000),
    })
  } catch {
    throw new InvalidLogoutToken("The logout token was used before")
  }
}
