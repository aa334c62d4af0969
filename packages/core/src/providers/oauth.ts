/**
 * Configuration types of OAuth 2.0 (`type: "oauth"`) and OpenID Connect
 * (`type: "oidc"`) providers, and small helpers for provider modules (built-in
 * or your own): {@link emailIfVerified}, {@link profileOf}, {@link requestTokens},
 * {@link requestUserinfo}, {@link withBearerTokenType}. The flow itself lives in `src/flows/oauth/`.
 * @module
 */
import type * as oauth from "oauth4webapi"
import { OAuthCallbackError } from "../errors.js"
import type { Account, Awaitable, Profile, TokenSet, User } from "../types.js"
import type { customFetch } from "../symbols.js"
import type { CommonProviderOptions } from "./index.js"

export type { TokenSet }

type UrlParams = Record<string, unknown>

/**
 * The checks performed on the callback. By default `pkce` and `state` (OAuth 2), `pkce` and
 * `nonce` (OIDC); `nonce` is OIDC only.
 *
 * @see [RFC 7636, PKCE](https://www.rfc-editor.org/rfc/rfc7636.html)
 * @see [RFC 6749 §10.12, Cross-Site Request Forgery](https://www.rfc-editor.org/rfc/rfc6749.html#section-10.12) (`state`)
 */
export type OAuthChecks = Array<"pkce" | "state" | "none" | "nonce">

/**
 * The three endpoints an OAuth provider can configure (Auth.js's name for them).
 *
 * @see [Auth.js: OAuth2Config](https://authjs.dev/reference/core/providers#oauth2configprofile)
 */
export type OAuthEndpointType = "authorization" | "token" | "userinfo"

/**
 * An endpoint given as a URL, or as a URL with extra parameters and optional custom handling.
 *
 * @see [Auth.js: OAuth providers](https://authjs.dev/reference/core/providers#oauth2config)
 */
export type EndpointHandler<P extends UrlParams, C = any, R = any> = {
  url?: string
  params?: P
  /** Replaces the request Tessera would make. */
  request?: (context: C) => Awaitable<R>
  /** Adjusts a provider's non-standard response before it is processed. */
  conform?: (response: Response) => Awaitable<Response | undefined>
}

/**
 * Parameters of the authorization request the provider sends the browser with.
 *
 * @see [RFC 6749 §4.1.1, Authorization Request](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1.1)
 * @see [OpenID Connect Core 1.0 §3.1.2.1, Authentication Request](https://openid.net/specs/openid-connect-core-1_0.html#AuthRequest)
 */
export interface AuthorizationParameters extends UrlParams {
  scope?: string
  response_type?: string
  response_mode?: string
  prompt?: string
  [parameter: string]: unknown
}

/**
 * A provider's `authorization`: the endpoint's URL, its parameters, or both.
 *
 * @see [RFC 6749 §4.1.1, Authorization Request](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1.1)
 */
export type AuthorizationEndpointHandler = EndpointHandler<AuthorizationParameters>

/**
 * What a custom token `request` receives.
 *
 * @see [RFC 6749 §4.1.3, Access Token Request](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1.3)
 */
export interface TokenRequestContext {
  /** The parameters of the callback request (`code`, `state`, ...). */
  params: Record<string, string>
  /** The values of the checks that passed, to send along (`code_verifier`). */
  checks: { code_verifier?: string; state?: string; nonce?: string }
  provider: OAuthConfigInternal<any>
  /** The `redirect_uri` sent in the authorization request; send the same one. */
  redirectUri: string
  /** `fetch` routed through the provider's `customFetch`; refuses `http:` unless allowed. */
  fetch: typeof fetch
}

/**
 * What a custom userinfo `request` receives.
 *
 * @see [OpenID Connect Core 1.0 §5.3, UserInfo Endpoint](https://openid.net/specs/openid-connect-core-1_0.html#UserInfo)
 */
export interface UserinfoRequestContext {
  tokens: TokenSet
  provider: OAuthConfigInternal<any>
  /** The parameters of the callback request (Apple posts the user's name here). */
  params: Record<string, string>
  /** The validated ID Token claims, when the token response had an ID Token. */
  claims?: Profile
  /** `fetch` routed through the provider's `customFetch`; refuses `http:` unless allowed. */
  fetch: typeof fetch
}

/**
 * The token endpoint. A custom `request` yields `{ tokens }` (or the token set
 * itself); its tokens are still validated like a token endpoint response.
 *
 * @see [RFC 6749 §4.1.3, Access Token Request](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1.3)
 */
export type TokenEndpointHandler = EndpointHandler<
  UrlParams,
  TokenRequestContext,
  { tokens: TokenSet } | TokenSet
>

/**
 * The userinfo endpoint. A custom `request` yields the profile.
 *
 * @see [OpenID Connect Core 1.0 §5.3, UserInfo Endpoint](https://openid.net/specs/openid-connect-core-1_0.html#UserInfo)
 */
export type UserinfoEndpointHandler = EndpointHandler<UrlParams, UserinfoRequestContext, Profile>

/**
 * Colours and logo of the provider's button on the built-in sign-in page.
 *
 * @see [Auth.js: OAuthProviderButtonStyles](https://authjs.dev/reference/core/providers#oauthproviderbuttonstyles)
 */
export interface OAuthProviderButtonStyles {
  logo?: string
  brandColor?: string
  /** @deprecated use `brandColor` */
  bg?: string
  /** @deprecated */
  text?: string
}

/**
 * A provider's `profile`: the user Tessera stores, made from the provider's profile and tokens.
 *
 * @see [Auth.js: profile](https://authjs.dev/reference/core/providers#profile)
 */
export type ProfileCallback<P> = (profile: P, tokens: TokenSet) => Awaitable<User>
/**
 * A provider's `account`: which token fields are stored with the account.
 *
 * @see [Auth.js: account](https://authjs.dev/reference/core/providers#account)
 */
export type AccountCallback = (tokens: TokenSet) => TokenSet | undefined | void

/**
 * An OAuth 2 provider: its endpoints, client, checks and how its profile becomes a user.
 *
 * @see [Auth.js: OAuth providers](https://authjs.dev/reference/core/providers#oauth2config)
 * @see [RFC 6749, The OAuth 2.0 Authorization Framework](https://www.rfc-editor.org/rfc/rfc6749.html)
 */
export interface OAuth2Config<P> extends CommonProviderOptions {
  type: "oauth"
  id: string
  name: string
  /** Default: `AUTH_<PROVIDER_ID>_ID` through `setEnvDefaults`. */
  clientId?: string
  /** Default: `AUTH_<PROVIDER_ID>_SECRET` through `setEnvDefaults`. */
  clientSecret?: string
  /**
   * The authorization server's issuer identifier. Checked against the `iss` of
   * ID Tokens and authorization responses; with no endpoints configured, the
   * metadata is discovered from `<issuer>/.well-known/openid-configuration`.
   */
  issuer?: string
  /** Authorization server metadata URL. This exact URL is fetched (once per process, then cached). */
  wellKnown?: string
  /** The JSON Web Key Set URL, when the metadata does not name one (`jwks_uri`). */
  jwks_endpoint?: string
  /** Where the browser is sent to sign in. `params` are added to the URL. */
  authorization?: string | AuthorizationEndpointHandler
  /** Where the code is exchanged. `params` are added to the request body. */
  token?: string | TokenEndpointHandler
  /** Where the profile is read (OAuth 2, or OIDC with `idToken: false`). `params` are added to the URL. */
  userinfo?: string | UserinfoEndpointHandler
  /**
   * OAuth 2 providers: the token response carries an ID Token whose claims are
   * the profile (no userinfo endpoint needed). OIDC providers: see `OIDCConfig`.
   */
  idToken?: boolean
  /** Default `["pkce"]` (`["pkce", "nonce"]` for OIDC). `state` is added when a redirect proxy is used. */
  checks?: OAuthChecks
  /**
   * oauth4webapi client metadata overrides: `token_endpoint_auth_method`
   * (`client_secret_basic` by default, `client_secret_post`, `none`),
   * `id_token_signed_response_alg` (`RS256` unless the metadata says otherwise), ...
   */
  client?: Partial<
    oauth.Client & {
      token_endpoint_auth_method: "client_secret_basic" | "client_secret_post" | "none"
    }
  >
  /** Turns the provider's profile into a user. Default: keeps id (`sub` or `id`), name, email, image (`picture`). */
  profile?: ProfileCallback<P>
  /**
   * The e-mail address the provider itself has verified for this user, read from
   * the provider's profile (before `profile` runs), or `null` when it vouches for
   * none. Only an address reported here, and equal to the user's e-mail, counts as
   * verified: an unverified address never identifies or links an existing user.
   *
   * Default: for `oidc`, `email` when the `email_verified` claim is `true`; for
   * `oauth`, `null` (unknown). Built-in providers set this from their documented
   * claims; override it only for a provider you know verifies addresses.
   */
  verifiedEmail?: (profile: P, tokens: TokenSet) => string | null | undefined
  /**
   * Picks what the Account stores from the token response. Default: access_token,
   * id_token, refresh_token, expires_at, scope, token_type, session_state.
   * Returning nothing stores no tokens.
   */
  account?: AccountCallback
  style?: OAuthProviderButtonStyles
  /** Link by e-mail to an existing user without asking. Unsafe across arbitrary providers. */
  allowDangerousEmailAccountLinking?: boolean
  /**
   * The stable deployment's auth URL (e.g. `https://app.example/auth`) that
   * receives callbacks for every deployment (preview deployments) and forwards
   * them to the one that started the sign-in. Default `AUTH_REDIRECT_PROXY_URL`.
   */
  redirectProxyUrl?: string
  /**
   * Allow `http:` issuer and endpoint URLs. Off by default; meant for loopback
   * test providers only. Never enable it for a provider reached over a network.
   */
  dangerouslyAllowInsecureHttpRequests?: boolean
  /**
   * Allow `checks: ["none"]`: a callback tied to no state, PKCE verifier or
   * nonce, which anyone can forge into a victim's browser. Off by default;
   * only for providers that support none of the checks. Logs a warning.
   */
  dangerouslyAllowNoChecks?: boolean
  /**
   * How `getAccessToken` and `refreshTokenSet` renew an expiring access token
   * with the stored refresh token (RFC 6749 §6). Default `true`: the standard
   * refresh grant at the token endpoint, through oauth4webapi, keeping the old
   * refresh token when the provider sends no new one. `false`: never refresh
   * (the stored token is returned as it is). An object keeps a provider's quirks:
   * extra `params` for the request, or a `request` of its own.
   * (Tessera addition.)
   */
  tokenRefresh?: boolean | TokenRefreshHandler
  /** Routes this provider's HTTP calls through your own `fetch` (proxies, tests). */
  [customFetch]?: typeof fetch
  /** The options the user passed to the factory; merged over the defaults. */
  options?: OAuthUserConfig<P>
}

/**
 * What a custom refresh `request` receives.
 *
 * @see [RFC 6749 §6, Refreshing an Access Token](https://www.rfc-editor.org/rfc/rfc6749.html#section-6)
 */
export interface TokenRefreshContext {
  refreshToken: string
  provider: OAuthConfigInternal<any>
  /** `fetch` routed through the provider's `customFetch`; refuses `http:` unless allowed. */
  fetch: typeof fetch
}

/**
 * A provider's own way of refreshing tokens: extra body `params`, or a
 * `request` that returns the token response (validated like any other).
 *
 * @see [RFC 6749 §6, Refreshing an Access Token](https://www.rfc-editor.org/rfc/rfc6749.html#section-6)
 */
export interface TokenRefreshHandler {
  params?: Record<string, string>
  request?: (context: TokenRefreshContext) => Awaitable<TokenSet>
}

/**
 * An OpenID Connect provider: an OAuth 2 provider whose identity comes in a verified ID Token,
 * endpoints from its issuer's discovery document.
 *
 * @see [Auth.js: OpenID Connect providers](https://authjs.dev/reference/core/providers#oidcconfig)
 * @see [OpenID Connect Core 1.0](https://openid.net/specs/openid-connect-core-1_0.html)
 */
export interface OIDCConfig<P> extends Omit<OAuth2Config<P>, "type" | "checks" | "options"> {
  type: "oidc"
  /** Default `["pkce", "nonce"]`. */
  checks?: OAuthChecks
  /** When false, the profile is read from the userinfo endpoint instead of the ID Token. Default true. */
  idToken?: boolean
  /**
   * `"provider"`: signing out (`POST <basePath>/signout`) of a session that
   * signed in through this provider also ends the user's session at the
   * provider: after the local session ends, the browser goes to the provider's
   * `end_session_endpoint` (OpenID Connect RP-Initiated Logout 1.0) with
   * `id_token_hint` (the ID Token: from the adapter, or the session cookie without one), `client_id`,
   * `post_logout_redirect_uri` and `state`. Default `"local"`. (Tessera addition.)
   */
  signOut?: "local" | "provider"
  /**
   * Where the provider sends the browser after its logout: a path or URL of
   * this app (register it at the provider). Default: the sign-out's callback URL.
   * Either way it passes the `redirect` callback.
   */
  postLogoutRedirectUri?: string
  /**
   * Accept OpenID Connect Back-Channel Logout 1.0 logout tokens from this
   * provider at `POST <basePath>/backchannel-logout/<id>` (register that URL
   * as the client's `backchannel_logout_uri`). Default true; it needs an
   * adapter that keeps session records. (Tessera addition.)
   */
  backchannelLogout?: boolean
  options?: OIDCUserConfig<P>
}

/**
 * The type of a claim a provider's profile type does not name: `any`, as in Auth.js's
 * provider profiles (`Record<string, any>`), so an app reading its own claim
 * (`profile.role ?? "user"`, Auth.js's role-based access guide) compiles unchanged.
 * Claims Tessera itself reads are named in each profile type.
 *
 * @see [Auth.js: GoogleProfile](https://authjs.dev/reference/core/providers/google#googleprofile)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProviderClaim = any

/**
 * An OAuth 2 or OpenID Connect provider.
 *
 * @see [Auth.js: OAuth providers](https://authjs.dev/reference/core/providers#oauth2config)
 */
export type OAuthConfig<P> = OIDCConfig<P> | OAuth2Config<P>

/**
 * What an OAuth provider factory takes: every field of {@link OAuth2Config} but `type`, all
 * optional.
 *
 * @see [Auth.js: OAuth providers](https://authjs.dev/reference/core/providers#oauth2config)
 */
export type OAuthUserConfig<P> = Omit<Partial<OAuth2Config<P>>, "options" | "type">
/**
 * What an OpenID Connect provider factory takes: every field of {@link OIDCConfig} but `type`, all
 * optional.
 *
 * @see [Auth.js: OpenID Connect providers](https://authjs.dev/reference/core/providers#oidcconfig)
 */
export type OIDCUserConfig<P> = Omit<Partial<OIDCConfig<P>>, "options" | "type">

/**
 * The ids of the built-in OAuth/OIDC providers, one per `@tessera/core/providers/<id>` module
 * (Auth.js's union also lists `loops`, an e-mail provider: that id is in `EmailProviderId`).
 *
 * @see [Auth.js: OAuthProviderId](https://authjs.dev/reference/core/providers#oauthproviderid)
 */
export type OAuthProviderId =
  | "42-school"
  | "apple"
  | "asgardeo"
  | "atlassian"
  | "auth0"
  | "authentik"
  | "azure-ad"
  | "azure-ad-b2c"
  | "azure-devops"
  | "bankid-no"
  | "battlenet"
  | "beyondidentity"
  | "bitbucket"
  | "box"
  | "boxyhq-saml"
  | "bungie"
  | "click-up"
  | "cognito"
  | "coinbase"
  | "concept2"
  | "descope"
  | "discord"
  | "dribbble"
  | "dropbox"
  | "duende-identity-server6"
  | "eventbrite"
  | "eveonline"
  | "facebook"
  | "faceit"
  | "figma"
  | "foursquare"
  | "freshbooks"
  | "frontegg"
  | "fusionauth"
  | "github"
  | "gitlab"
  | "google"
  | "hubspot"
  | "huggingface"
  | "identity-server4"
  | "instagram"
  | "kakao"
  | "keycloak"
  | "kinde"
  | "line"
  | "linkedin"
  | "logto"
  | "mailchimp"
  | "mailru"
  | "mastodon"
  | "mattermost"
  | "medium"
  | "microsoft-entra-id"
  | "naver"
  | "netlify"
  | "netsuite"
  | "nextcloud"
  | "notion"
  | "okta"
  | "onelogin"
  | "ory-hydra"
  | "osso"
  | "osu"
  | "passage"
  | "patreon"
  | "ping-id"
  | "pinterest"
  | "pipedrive"
  | "reddit"
  | "roblox"
  | "salesforce"
  | "simplelogin"
  | "slack"
  | "spotify"
  | "strava"
  | "threads"
  | "tiktok"
  | "todoist"
  | "trakt"
  | "twitch"
  | "twitter"
  | "united-effects"
  | "vipps"
  | "vk"
  | "webex"
  | "wechat"
  | "wikimedia"
  | "wordpress"
  | "workos"
  | "yandex"
  | "zitadel"
  | "zoho"
  | "zoom"

/**
 * An OAuth/OIDC provider after configuration resolution.
 *
 * @see {@link OAuthConfig}
 */
export type OAuthConfigInternal<P> = OAuthConfig<P> & {
  authorization?: AuthorizationEndpointHandler
  token?: TokenEndpointHandler
  userinfo?: UserinfoEndpointHandler
  checks: OAuthChecks
  profile: ProfileCallback<P>
  account: AccountCallback
}

/**
 * An OpenID Connect provider after configuration resolution.
 *
 * @see [Auth.js: OIDCConfigInternal](https://authjs.dev/reference/core/providers#oidcconfiginternal)
 */
export type OIDCConfigInternal<P> = OAuthConfigInternal<P> & {
  checks: OIDCConfig<P>["checks"]
  idToken: OIDCConfig<P>["idToken"]
}

export type { Account }

/**
 * The `verifiedEmail` of OpenID Connect providers that use the standard claims
 * (OIDC Core §5.1): `email` when `email_verified` is `true`, else null.
 *
 * @example
 * ```ts
 * { type: "oidc", ..., verifiedEmail: emailIfVerified }
 * ```
 *
 * @param profile The ID Token claims or userinfo response.
 * @see [OpenID Connect Core 1.0 §5.1, Standard Claims](https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims) (`email_verified`)
 */
export function emailIfVerified(profile: {
  email?: unknown
  email_verified?: unknown
}): string | null {
  return profile.email_verified === true &&
    typeof profile.email === "string" &&
    profile.email !== ""
    ? profile.email
    : null
}

/** Provider-sent text that ends up in an error message: short, no control characters. */
function clean(text: unknown): string {
  return String(text)
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .slice(0, 100)
}

/**
 * A token request for providers whose token endpoint wants more than the
 * standard one (extra body fields, headers, the client id under another name):
 * for a custom `token.request`. Sends `grant_type=authorization_code`, `code`,
 * `redirect_uri` and the PKCE verifier as a form, plus `body`; with `basic`,
 * the client id and secret as HTTP Basic credentials (RFC 6749 §2.3.1).
 * Resolves to the token response; throws when the endpoint answers an error,
 * with a non-2xx status or with an `error` field (some answer errors with 200).
 *
 * @example
 * ```ts
 * token: {
 *   url: "https://provider.example/token",
 *   request: (context) =>
 *     requestTokens(context, { body: { client_key: context.provider.clientId! } }),
 * }
 * ```
 *
 * @param context What the provider's custom token `request` received.
 * @param init `basic`: client authentication by HTTP Basic; extra `body` parameters and `headers`.
 * @see [RFC 6749 §4.1.3, Access Token Request](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1.3)
 */
export async function requestTokens(
  context: TokenRequestContext,
  init: { basic?: boolean; body?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<TokenSet> {
  const { provider, params, checks, redirectUri } = context
  const url = provider.token?.url
  if (!url) throw new Error(`Provider "${provider.id}" has no token URL`)
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: params.code ?? "",
    redirect_uri: redirectUri,
  })
  if (checks.code_verifier) body.set("code_verifier", checks.code_verifier)
  for (const [key, value] of Object.entries(init.body ?? {})) body.set(key, value)
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": "application/x-www-form-urlencoded",
    ...init.headers,
  }
  if (init.basic) {
    const encode = (value: string | undefined) =>
      encodeURIComponent(value ?? "").replace(/%20/g, "+")
    const credentials = `${encode(provider.clientId)}:${encode(provider.clientSecret)}`
    headers.authorization = `Basic ${btoa(credentials)}`
  }
  const response = await context.fetch(url, { method: "POST", headers, body })
  const json: unknown = await response.json().catch(() => undefined)
  const error = json && typeof json === "object" ? (json as { error?: unknown }).error : "not JSON"
  if (!response.ok || error !== undefined) {
    const label = error === undefined ? "" : ` with error "${clean(error)}"`
    // A spent or made-up code is the client's doing (logged as a refusal); anything else is not.
    const Class = error === "invalid_grant" ? OAuthCallbackError : Error
    throw new Class(
      `Provider "${provider.id}": the token endpoint answered ${response.status}${label}`,
    )
  }
  return json as TokenSet
}

/**
 * A `token.conform` for providers whose token response has no `token_type`
 * (OAuth 2.0 requires one): their access tokens are bearer tokens.
 *
 * @param response The token endpoint's response.
 * @see [RFC 6749 §5.1, Successful Response](https://www.rfc-editor.org/rfc/rfc6749.html#section-5.1) (`token_type` is required)
 */
export async function withBearerTokenType(response: Response): Promise<Response | undefined> {
  if (response.status !== 200) return undefined
  const body: unknown = await response.json().catch(() => undefined)
  if (!body || typeof body !== "object" || "token_type" in body) return undefined
  return new Response(JSON.stringify({ ...body, token_type: "bearer" }), {
    status: 200,
    headers: { "content-type": "application/json" },
  })
}

/**
 * The `profile` of OpenID Connect providers that use the standard claims: `sub`,
 * `name` (else `preferred_username`), `email`, `picture`.
 *
 * @param profile The ID Token claims or userinfo response.
 * @see [OpenID Connect Core 1.0 §5.1, Standard Claims](https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims)
 */
export function profileOf(profile: {
  sub: string
  name?: string | null
  preferred_username?: string | null
  email?: string | null
  picture?: string | null
}): User {
  return {
    id: profile.sub,
    name: profile.name ?? profile.preferred_username ?? null,
    email: profile.email ?? null,
    image: profile.picture ?? null,
  }
}

/**
 * For a custom `userinfo.request`: one request (default: GET the userinfo URL
 * with the access token as a Bearer token), resolving to the JSON object
 * answered; throws on any other answer.
 *
 * @example
 * ```ts
 * userinfo: {
 *   url: "https://api.provider.example/me",
 *   request: (context) => requestUserinfo(context, { method: "POST", headers: { "x-api-version": "2" } }),
 * }
 * ```
 *
 * @param context What the provider's custom userinfo `request` received.
 * @param init The request's URL, query and headers, when they differ from the provider's
 *   `userinfo`.
 * @see [OpenID Connect Core 1.0 §5.3, UserInfo Endpoint](https://openid.net/specs/openid-connect-core-1_0.html#UserInfo)
 * @see [RFC 6750 §2.1, Authorization Request Header Field](https://www.rfc-editor.org/rfc/rfc6750.html#section-2.1)
 */
export async function requestUserinfo(
  context: UserinfoRequestContext,
  init: {
    url?: string | URL
    method?: string
    headers?: Record<string, string>
    bearer?: boolean
  } = {},
): Promise<Profile> {
  const { provider, tokens } = context
  const url = init.url ?? provider.userinfo?.url
  if (!url) throw new Error(`Provider "${provider.id}" has no userinfo URL`)
  const headers: Record<string, string> = { accept: "application/json", ...init.headers }
  if (init.bearer !== false) headers.authorization = `Bearer ${tokens.access_token}`
  const response = await context.fetch(url, { method: init.method ?? "GET", headers })
  const body: unknown = await response.json().catch(() => undefined)
  // The configured endpoint's path, not the request's: a provider may put the token in it (HubSpot).
  const path = new URL(provider.userinfo?.url ?? url).pathname
  if (!response.ok)
    throw new Error(`Provider "${provider.id}": ${path} answered ${response.status}`)
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new Error(`Provider "${provider.id}": ${path} answered no JSON object`)
  return body as Profile
}
