/**
 * The code exchange: the token request (oauth4webapi's, or the provider's own
 * `token.request`), the provider's `token.conform`, then oauth4webapi's
 * validation of the response, which checks an ID Token's `iss`, `aud`, `azp`,
 * `exp`, `iat`, `nonce` and algorithm. oauth4webapi leaves the ID Token's
 * signature to the caller (TLS vouches for the token endpoint); Tessera checks
 * it anyway against the issuer's JWKS, so a token that did not come from the
 * issuer's keys never signs anyone in.
 * @module
 */
import * as o from "oauth4webapi"
import { OAuthProviderError } from "../../errors.js"
import type { Profile, TokenSet } from "../../types.js"
import type { OAuthClient } from "./client.js"
import { expiresAtOf } from "./expiry.js"
import { httpOptions, providerFetch } from "./http.js"
import { jwsAlgorithm, verifyHmacJws } from "./id-token-hmac.js"
import type { ResolvedOAuthProvider } from "../types.js"

type Provider = ResolvedOAuthProvider

export interface CodeExchange {
  provider: Provider
  as: o.AuthorizationServer
  oauth: OAuthClient
  /** The validated authorization response (oauth4webapi-branded). */
  grant: URLSearchParams
  /** The raw callback parameters, for custom handlers. */
  params: URLSearchParams
  redirectUri: string
  codeVerifier: string | undefined
  state: string | undefined
  nonce: string | undefined
}

export interface ExchangedTokens {
  tokens: TokenSet
  /** The validated ID Token claims, when there was an ID Token. */
  claims: Profile | undefined
}

export async function exchangeCode(exchange: CodeExchange): Promise<ExchangedTokens> {
  const { provider, as, oauth } = exchange
  let response = await tokenResponse(exchange)
  const conform = provider.token?.conform
  if (conform) response = (await conform(response.clone())) ?? response

  const processed = await o.processAuthorizationCodeResponse(as, oauth.client, response, {
    expectedNonce: exchange.nonce ?? o.expectNoNonce,
    requireIdToken: provider.type === "oidc",
  })
  if (processed.id_token)
    await verifyJwtResponseSignature(
      provider,
      as,
      response,
      processed.id_token,
      "ID Token",
      provider.client?.id_token_signed_response_alg,
    )

  const tokens: TokenSet = { ...(processed as TokenSet) }
  if (typeof tokens.token_type === "string")
    tokens.token_type = tokens.token_type.toLowerCase() as Lowercase<string>
  const expiresAt = expiresAtOf(tokens.expires_in)
  if (expiresAt !== undefined) tokens.expires_at = expiresAt
  const claims = o.getValidatedIdTokenClaims(processed) as Profile | undefined
  return { tokens, claims: claims ? { ...claims } : undefined }
}

async function tokenResponse(exchange: CodeExchange): Promise<Response> {
  const { provider, as, oauth, grant, redirectUri, codeVerifier } = exchange
  const custom = provider.token?.request
  if (!custom) {
    const additionalParameters: Record<string, string> = {}
    for (const [key, value] of Object.entries(provider.token?.params ?? {})) {
      if (value !== undefined && value !== null) additionalParameters[key] = String(value)
    }
    return o.authorizationCodeGrantRequest(
      as,
      oauth.client,
      oauth.clientAuth,
      grant,
      redirectUri,
      codeVerifier ?? o.nopkce,
      {
        ...httpOptions(provider),
        additionalParameters,
      },
    )
  }
  const result = await custom({
    params: Object.fromEntries(exchange.params),
    checks: { code_verifier: codeVerifier, state: exchange.state, nonce: exchange.nonce },
    provider,
    redirectUri,
    fetch: providerFetch(provider),
  })
  const tokens =
    result && typeof result === "object" && "tokens" in result && typeof result.tokens === "object"
      ? result.tokens
      : result
  if (!tokens || typeof tokens !== "object")
    throw new OAuthProviderError(`Provider "${provider.id}": token.request returned no tokens`)
  // Custom handlers often leave out token_type; what they return is a bearer token.
  const body = { token_type: "bearer", ...(tokens as TokenSet) }
  // Validated exactly like a token endpoint's answer.
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { "content-type": "application/json" },
  })
}

/**
 * The signature of a JWT that oauth4webapi has processed from `response` (an
 * ID Token, or a signed userinfo response). Asymmetric algorithms are checked
 * against the issuer's JWKS by oauth4webapi (keys cached with the metadata);
 * `HS*` against the client secret, as OIDC Core specifies, and only when the
 * app registered that algorithm for this JWT (`registered`: the client's
 * `id_token_signed_response_alg` or `userinfo_signed_response_alg`). Discovery
 * lists what the issuer can sign with for some client (Keycloak and Auth0 list
 * HS256), not what it does for this one (OIDC Core §3.1.3.7: RS256 unless
 * registered otherwise); and a MAC keyed with the client secret, which travels
 * with every token request, lets whoever learnt the secret mint tokens for any
 * `sub`. `alg: none` never passes: oauth4webapi refuses it before this point,
 * and this refuses it again.
 */
export async function verifyJwtResponseSignature(
  provider: Provider,
  as: o.AuthorizationServer,
  response: Response,
  jwt: string,
  label: string,
  registered: string | undefined,
): Promise<void> {
  let alg: unknown
  try {
    alg = jwsAlgorithm(jwt)
  } catch {
    throw new OAuthProviderError(`Provider "${provider.id}": the ${label} header cannot be read`)
  }
  if (typeof alg !== "string" || alg === "none")
    throw new OAuthProviderError(`Provider "${provider.id}": unsigned ${label} refused`)
  if (alg.startsWith("HS")) {
    if (alg !== registered)
      throw new OAuthProviderError(
        `Provider "${provider.id}": an ${alg} ${label} is refused unless the client registered ${alg}`,
      )
    if (!provider.clientSecret)
      throw new OAuthProviderError(
        `Provider "${provider.id}": an ${alg} ${label} needs the client secret`,
      )
    if (!(await verifyHmacJws(jwt, provider.clientSecret, alg)))
      throw new OAuthProviderError(`Provider "${provider.id}": the ${label} signature is invalid`)
    return
  }
  if (!as.jwks_uri) {
    if (provider.type === "oauth") return
    throw new OAuthProviderError(
      `Provider "${provider.id}": no jwks_uri to check the ${label} signature with`,
    )
  }
  await o.validateApplicationLevelSignature(as, response, httpOptions(provider))
}
