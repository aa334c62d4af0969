/**
 * Configuration types of OAuth 2.0 (`type: "oauth"`) and OpenID Connect
 * (`type: "oidc"`) providers. The flow itself lives in `src/oauth/`.
 * @module
 */
import type * as oauth from "oauth4webapi"
import type { Account, Awaitable, Profile, TokenSet, User } from "../types.js"
import type { customFetch } from "../symbols.js"
import type { CommonProviderOptions } from "./index.js"

export type { TokenSet }

type UrlParams = Record<string, unknown>

/** The checks performed on the callback. `pkce` by default; `nonce` is OIDC only. */
export type OAuthChecks = Array<"pkce" | "state" | "none" | "nonce">

/** An endpoint given as a URL, or as a URL with extra parameters and optional custom handling. */
export type EndpointHandler<P extends UrlParams, C = any, R = any> = {
  url?: string
  params?: P
  /** Replaces the request Tessera would make. */
  request?: (context: C) => Awaitable<R>
  /** Adjusts a provider's non-standard response before it is processed. */
  conform?: (response: Response) => Awaitable<Response | undefined>
}

export interface AuthorizationParameters extends UrlParams {
  scope?: string
  response_type?: string
  response_mode?: string
  prompt?: string
  [parameter: string]: unknown
}

export type AuthorizationEndpointHandler = EndpointHandler<AuthorizationParameters>

export type TokenEndpointHandler = EndpointHandler<
  UrlParams,
  { params: Record<string, string>; checks: { code_verifier?: string; state?: string; nonce?: string }; provider: OAuthConfigInternal<any> },
  { tokens: TokenSet }
>

export type UserinfoEndpointHandler = EndpointHandler<
  UrlParams,
  { tokens: TokenSet; provider: OAuthConfigInternal<any> },
  Profile
>

/** Colours and logo of the provider's button on the built-in sign-in page. */
export interface OAuthProviderButtonStyles {
  logo?: string
  brandColor?: string
  /** @deprecated use `brandColor` */
  bg?: string
  /** @deprecated */
  text?: string
}

export type ProfileCallback<P> = (profile: P, tokens: TokenSet) => Awaitable<User>
export type AccountCallback = (tokens: TokenSet) => TokenSet | undefined | void

export interface OAuth2Config<P> extends CommonProviderOptions {
  type: "oauth"
  id: string
  name: string
  clientId?: string
  clientSecret?: string
  issuer?: string
  /** Authorization server metadata URL. This exact URL is fetched (once per issuer). */
  wellKnown?: string
  jwks_endpoint?: string
  authorization?: string | AuthorizationEndpointHandler
  token?: string | TokenEndpointHandler
  userinfo?: string | UserinfoEndpointHandler
  /** Default `["pkce"]`. */
  checks?: OAuthChecks
  /** oauth4webapi client overrides: `token_endpoint_auth_method`, `id_token_signed_response_alg`, ... */
  client?: Partial<oauth.Client & { token_endpoint_auth_method: "client_secret_basic" | "client_secret_post" | "none" }>
  profile?: ProfileCallback<P>
  account?: AccountCallback
  style?: OAuthProviderButtonStyles
  /** Link by e-mail to an existing user without asking. Unsafe across arbitrary providers. */
  allowDangerousEmailAccountLinking?: boolean
  redirectProxyUrl?: string
  /**
   * Allow `http:` issuer and endpoint URLs. Off by default; meant for loopback
   * test providers only. Never enable it for a provider reached over a network.
   */
  dangerouslyAllowInsecureHttpRequests?: boolean
  /** Routes this provider's HTTP calls through your own `fetch` (proxies, tests). */
  [customFetch]?: typeof fetch
  /** The options the user passed to the factory; merged over the defaults. */
  options?: OAuthUserConfig<P>
}

export interface OIDCConfig<P> extends Omit<OAuth2Config<P>, "type" | "checks" | "options"> {
  type: "oidc"
  checks?: OAuthChecks
  /** When false, the profile is read from the userinfo endpoint instead of the id_token. */
  idToken?: boolean
  options?: OAuthUserConfig<P>
}

export type OAuthConfig<P> = OIDCConfig<P> | OAuth2Config<P>

export type OAuthUserConfig<P> = Omit<Partial<OAuth2Config<P>>, "options" | "type">
export type OIDCUserConfig<P> = Omit<Partial<OIDCConfig<P>>, "options" | "type">

/** An OAuth/OIDC provider after configuration resolution. */
export type OAuthConfigInternal<P> = OAuthConfig<P> & {
  authorization?: AuthorizationEndpointHandler
  token?: TokenEndpointHandler
  userinfo?: UserinfoEndpointHandler
  checks: OAuthChecks
  profile: ProfileCallback<P>
  account: AccountCallback
}

export type { Account }
