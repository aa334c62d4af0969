/**
 * A local OpenID Provider for tests and demos: `oidc-provider` on 127.0.0.1,
 * on a port the OS picks, with one static confidential client and
 * oidc-provider's development interactions (a login form that accepts any
 * account id with any password, then a consent form). Nothing leaves the
 * machine, so sign-in through OIDC works with no internet. Refresh tokens
 * (scope `offline_access`, rotated by default), RP-Initiated Logout and
 * Back-Channel Logout (with `backchannelLogoutUri`) are on.
 *
 * `completeOidcLogin` plays the browser over plain HTTP: it follows the
 * authorization URL with a cookie jar, submits the login and consent forms,
 * and returns the callback the provider sends the browser to (a GET, or the
 * POST of `response_mode=form_post`), without visiting it.
 *
 * @example
 * ```ts
 * import { startOidcProvider, completeOidcLogin } from "@tessera/testing"
 * const idp = await startOidcProvider({ redirectUris: ["http://localhost:3000/auth/callback/local"] })
 * const provider = {
 *   id: "local", name: "Local", type: "oidc",
 *   issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret,
 *   dangerouslyAllowInsecureHttpRequests: true, // http: on loopback only
 * }
 * // POST /auth/signin/local -> Location: the authorization URL
 * const callback = await completeOidcLogin(location, { accountId: "ada" })
 * // GET callback.url on your app with the sign-in cookies -> signed in as "ada"
 * await idp.stop()
 * ```
 * @module
 */
import { generateKeyPairSync, randomBytes, randomUUID, sign as cryptoSign } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { cookieHeader, storeCookies } from "./cookie-jar.js"

/** The `events` member of a back-channel logout token (OpenID Connect Back-Channel Logout 1.0 §2.4). */
const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout"

/**
 * Options of {@link startOidcProvider}: the client's redirect URIs and credentials, token
 * lifetimes, logout settings.
 *
 * @see [docs/testing.md: a local OpenID provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#a-local-openid-provider)
 */
export interface StartOidcProviderOptions {
  /** Redirect URIs of the client: your app's `<origin><basePath>/callback/<providerId>`. */
  redirectUris: string[]
  /** Default `tessera-test-client`. */
  clientId?: string
  /** Default: 32 random bytes, base64url. */
  clientSecret?: string
  /** How the client authenticates at the token endpoint. Default `client_secret_basic`. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none"
  /**
   * Claims per account id. Any account id can sign in; one not listed here gets
   * `name` (the id, capitalised), `email` (`<id>@example.test`, verified) and
   * `preferred_username` (the id). Listed claims are merged over those.
   */
  accounts?: Record<string, Record<string, unknown>>
  /**
   * Put the `profile` and `email` claims in the ID Token, where OIDC providers
   * in Tessera read them (default true). With false they are in userinfo only.
   */
  claimsInIdToken?: boolean
  /** Refuse authorization requests without PKCE (default true). */
  requirePkce?: boolean
  /**
   * Access token lifetime in seconds (default 3600): short ones exercise
   * token refresh. Refresh tokens are issued for the `offline_access` scope.
   */
  accessTokenTtl?: number
  /** Issue a new refresh token on every refresh, spending the old one (default true). */
  rotateRefreshTokens?: boolean
  /**
   * The client's `backchannel_logout_uri` (OpenID Connect Back-Channel Logout
   * 1.0): the provider POSTs a logout token there when a session ends at the
   * provider. ID Tokens then carry `sid`. Default: none.
   */
  backchannelLogoutUri?: string
  /** The client's `post_logout_redirect_uris` (RP-Initiated Logout 1.0). Default: none. */
  postLogoutRedirectUris?: string[]
  /** Default 0: a free port. */
  port?: number
}

/**
 * A running local OpenID provider: its issuer, client credentials, how to sign tokens and stop it.
 *
 * @see [docs/testing.md: a local OpenID provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#a-local-openid-provider)
 */
export interface OidcProviderServer {
  /** The issuer identifier, `http://127.0.0.1:<port>`. Discovery is at `<issuer>/.well-known/openid-configuration`. */
  issuer: string
  /** The server's base URL (the same as the issuer). */
  url: string
  clientId: string
  clientSecret: string
  redirectUris: string[]
  /** The oidc-provider instance, for tests that need more (events, adapters). */
  provider: unknown
  /**
   * Signs `claims` as a JWT with the provider's own key (RS256, its `kid`):
   * for tests that need a token only this provider could make, wrong on purpose
   * (a logout token with another audience, an old `iat`, ...).
   */
  sign(claims: Record<string, unknown>, header?: Record<string, unknown>): string
  /**
   * A back-channel logout token as this provider sends it to its client:
   * `iss`, `aud`, `iat`, `exp` (two minutes on), a fresh `jti` and the logout
   * event, signed with its key. `claims` names who is logged out (`sub`,
   * `sid`) and may override any of the others.
   */
  logoutToken(claims: Record<string, unknown>): string
  /** Stops the server and closes its connections. */
  stop(): Promise<void>
}

function capitalise(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1)
}

/**
 * Starts the provider; resolves once it listens. Always `stop()` it.
 *
 * @param options The client's redirect URIs, and optional settings.
 * @see [docs/testing.md: a local OpenID provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#a-local-openid-provider)
 * @see [OpenID Connect Discovery 1.0](https://openid.net/specs/openid-connect-discovery-1_0.html)
 */
export async function startOidcProvider(
  options: StartOidcProviderOptions,
): Promise<OidcProviderServer> {
  if (!Array.isArray(options?.redirectUris) || options.redirectUris.length === 0) {
    throw new TypeError("startOidcProvider needs redirectUris: your app's callback URLs")
  }
  const clientId = options.clientId ?? "tessera-test-client"
  const clientSecret = options.clientSecret ?? randomBytes(32).toString("base64url")
  const authMethod = options.tokenEndpointAuthMethod ?? "client_secret_basic"
  const accounts = options.accounts ?? {}

  // The issuer names the port, so listen first and install the provider after.
  let handler: ((req: any, res: any) => void) | undefined
  const server: Server = createServer((req, res) => {
    if (handler) handler(req, res)
    else res.writeHead(503).end()
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const issuer = `http://127.0.0.1:${port}`

  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const kid = randomBytes(8).toString("hex")
  const jwk = {
    ...privateKey.export({ format: "jwk" }),
    kid,
    alg: "RS256",
    use: "sig",
  }

  // Loaded on first use: importing @tessera/testing for the adapter suite shouldn't load oidc-provider.
  const { default: Provider } = await withoutDevelopmentWarnings(() => import("oidc-provider"))
  const provider = withoutDevelopmentWarnings(
    () =>
      new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            ...(authMethod === "none" ? {} : { client_secret: clientSecret }),
            redirect_uris: options.redirectUris,
            response_types: ["code"],
            grant_types: ["authorization_code", "refresh_token"],
            token_endpoint_auth_method: authMethod,
            ...(options.backchannelLogoutUri
              ? {
                  backchannel_logout_uri: options.backchannelLogoutUri,
                  backchannel_logout_session_required: true,
                }
              : {}),
            ...(options.postLogoutRedirectUris
              ? { post_logout_redirect_uris: options.postLogoutRedirectUris }
              : {}),
          },
        ],
        jwks: { keys: [jwk] },
        cookies: { keys: [randomBytes(32).toString("base64url")] },
        features: {
          devInteractions: { enabled: true },
          backchannelLogout: { enabled: true },
          rpInitiatedLogout: { enabled: true },
        },
        rotateRefreshToken: options.rotateRefreshTokens !== false,
        // oidc-provider refuses to call special-use addresses (SSRF protection); the
        // apps of this loopback-only provider live on 127.0.0.1 (back-channel logout).
        fetch: (url: string | URL, init: RequestInit & { dispatcher?: unknown }) => {
          const { dispatcher: _ssrfGuard, ...rest } = init
          return fetch(url, rest)
        },
        claims: {
          openid: ["sub"],
          email: ["email", "email_verified"],
          profile: ["name", "given_name", "family_name", "preferred_username", "picture"],
        },
        conformIdTokenClaims: options.claimsInIdToken === false,
        pkce: { required: () => options.requirePkce !== false },
        // Explicit lifetimes (seconds), so oidc-provider does not warn about its defaults.
        ttl: {
          AccessToken: options.accessTokenTtl ?? 3600,
          RefreshToken: 14 * 24 * 3600,
          AuthorizationCode: 60,
          IdToken: 3600,
          Interaction: 3600,
          Session: 14 * 24 * 3600,
          Grant: 14 * 24 * 3600,
        },
        async findAccount(_ctx: unknown, sub: string) {
          return {
            accountId: sub,
            async claims() {
              return {
                name: capitalise(sub),
                email: `${sub}@example.test`,
                email_verified: true,
                preferred_username: sub,
                ...accounts[sub],
                sub,
              }
            },
          }
        },
      }),
  )
  handler = provider.callback()

  /** A JWT signed with the provider's own key (RS256, its `kid`). */
  const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
    const input = `${encode({ alg: "RS256", kid, ...header })}.${encode(claims)}`
    return `${input}.${cryptoSign("sha256", Buffer.from(input), privateKey).toString("base64url")}`
  }

  return {
    issuer,
    url: issuer,
    clientId,
    clientSecret,
    redirectUris: [...options.redirectUris],
    provider,
    sign,
    logoutToken(claims) {
      const now = Math.floor(Date.now() / 1000)
      return sign({
        iss: issuer,
        aud: clientId,
        iat: now,
        exp: now + 120,
        jti: randomUUID(),
        events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
        ...claims,
      })
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/**
 * Runs `work` without oidc-provider's warnings that it runs in development mode (an in-memory
 * adapter, development interactions) or on a Node.js it does not list (20): this provider is
 * a development one by design, and tests and the demo would print them on every start, where
 * they read like faults. Any other warning is printed.
 */
function withoutDevelopmentWarnings<T>(work: () => T): T {
  const warn = console.warn
  console.warn = (...args: unknown[]) => {
    const text = typeof args[0] === "string" ? args[0] : ""
    if (/oidc-provider WARNING: (Unsupported runtime|a quick start development-only)/.test(text))
      return
    warn(...args)
  }
  let result: T
  try {
    result = work()
  } catch (error) {
    console.warn = warn
    throw error
  }
  if (result instanceof Promise) {
    return result.finally(() => (console.warn = warn)) as T
  }
  console.warn = warn
  return result
}

/**
 * Options of {@link completeOidcLogin}: who signs in (or cancels), with which cookie jar and fetch.
 *
 * @see [docs/testing.md: a local OpenID provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#a-local-openid-provider)
 */
export interface CompleteOidcLoginOptions {
  /** The account to sign in as. Any id works; default `alice`. */
  accountId?: string
  /** Press "Cancel" instead of signing in: the provider answers `error=access_denied`. */
  cancel?: boolean
  /** The cookie jar of this "browser" at the provider; pass the same map to stay signed in there. */
  jar?: Map<string, string>
  /** Default: the global `fetch`. */
  fetch?: typeof fetch
}

/**
 * The request the provider sends the browser back to the application with.
 *
 * @see [OpenID Connect Core 1.0 §3.1, Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export interface OidcCallback {
  url: URL
  method: "GET" | "POST"
  /** The form of a `response_mode=form_post` callback. */
  body?: URLSearchParams
}

const MAX_STEPS = 20

/**
 * Drives the provider's development interactions from `authorizationUrl` to
 * the callback: follows redirects, submits the login form (any password) and
 * the consent form. Stops at the first request that leaves the provider.
 *
 * @param authorizationUrl The provider URL the app redirected to.
 * @param options Who signs in (or `cancel`), the cookie jar and fetch.
 * @see [OpenID Connect Core 1.0 §3.1, Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export async function completeOidcLogin(
  authorizationUrl: string | URL,
  options: CompleteOidcLoginOptions = {},
): Promise<OidcCallback> {
  const doFetch = options.fetch ?? fetch
  const jar = options.jar ?? new Map<string, string>()
  const start = new URL(authorizationUrl)
  const origin = start.origin
  let request: { url: URL; method: "GET" | "POST"; body?: URLSearchParams } = {
    url: start,
    method: "GET",
  }

  for (let step = 0; step < MAX_STEPS; step++) {
    if (request.url.origin !== origin) return request
    const headers: Record<string, string> = {}
    const cookie = cookieHeader(jar)
    if (cookie) headers.cookie = cookie
    if (request.body) headers["content-type"] = "application/x-www-form-urlencoded"
    const response = await doFetch(request.url, {
      method: request.method,
      headers,
      body: request.body?.toString(),
      redirect: "manual",
    })
    storeCookies(jar, response.headers)
    const location = response.headers.get("location")
    if (response.status >= 300 && response.status < 400 && location) {
      request = { url: new URL(location, request.url), method: "GET" }
      continue
    }
    const html = await response.text()
    if (!response.headers.get("content-type")?.includes("text/html")) {
      throw new Error(
        `The provider answered ${response.status} at ${request.url.pathname}: ${html.slice(0, 200)}`,
      )
    }
    request = nextStep(html, request.url, options)
  }
  throw new Error(`No callback after ${MAX_STEPS} steps at the provider`)
}

/**
 * Plays the browser through the provider's RP-Initiated Logout: opens
 * `endSessionUrl` with the cookie jar of the login (`completeOidcLogin`'s
 * `jar`), confirms "Yes, sign me out", and returns where the provider sends
 * the browser afterwards (the `post_logout_redirect_uri`, with `state`), or its
 * own "signed out" page. Clients with a `backchannel_logout_uri` get their
 * logout tokens before this resolves.
 *
 * @param endSessionUrl The provider's end-session URL the app redirected to.
 * @param options The cookie jar of the provider's session, and fetch.
 * @see [OpenID Connect RP-Initiated Logout 1.0](https://openid.net/specs/openid-connect-rpinitiated-1_0.html)
 */
export async function completeOidcLogout(
  endSessionUrl: string | URL,
  options: { jar?: Map<string, string>; fetch?: typeof fetch } = {},
): Promise<URL> {
  const doFetch = options.fetch ?? fetch
  const jar = options.jar ?? new Map<string, string>()
  let url = new URL(endSessionUrl)
  const origin = url.origin
  let body: URLSearchParams | undefined
  for (let step = 0; step < MAX_STEPS; step++) {
    if (url.origin !== origin) return url
    const headers: Record<string, string> = {}
    const cookie = cookieHeader(jar)
    if (cookie) headers.cookie = cookie
    if (body) headers["content-type"] = "application/x-www-form-urlencoded"
    const response = await doFetch(url, {
      method: body ? "POST" : "GET",
      headers,
      body: body?.toString(),
      redirect: "manual",
    })
    storeCookies(jar, response.headers)
    const location = response.headers.get("location")
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url)
      body = undefined
      continue
    }
    const html = await response.text()
    const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html)
    if (!form) return url
    const fields = new URLSearchParams()
    for (const input of form[2]!.matchAll(/<input\b([^>]*)>/gi)) {
      const name = attribute(input[1]!, "name")
      if (name) fields.set(name, decodeEntities(attribute(input[1]!, "value") ?? ""))
    }
    // The confirmation page's "Yes, sign me out" button sits outside its form.
    if (/name="logout"/.test(html) && !fields.has("logout")) fields.set("logout", "yes")
    url = new URL(decodeEntities(attribute(form[1]!, "action") ?? url.href), url)
    body = fields
  }
  throw new Error(`No end of the logout after ${MAX_STEPS} steps at the provider`)
}

function nextStep(
  html: string,
  base: URL,
  options: CompleteOidcLoginOptions,
): { url: URL; method: "GET" | "POST"; body?: URLSearchParams } {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html)
  if (!form) throw new Error(`The provider page has no form: ${stripTags(html).slice(0, 200)}`)
  const action = new URL(decodeEntities(attribute(form[1]!, "action") ?? base.href), base)
  const fields = new URLSearchParams()
  for (const input of form[2]!.matchAll(/<input\b([^>]*)>/gi)) {
    const name = attribute(input[1]!, "name")
    const type = attribute(input[1]!, "type")
    if (name && type === "hidden")
      fields.set(name, decodeEntities(attribute(input[1]!, "value") ?? ""))
  }
  // The form_post response mode: an auto-submitting form to the application.
  if (action.origin !== base.origin) return { url: action, method: "POST", body: fields }
  const prompt = fields.get("prompt")
  if (prompt === "login" || prompt === "consent") {
    if (options.cancel) {
      const abort = /<a\b[^>]*href="([^"]*\/abort)"/i.exec(html)
      if (!abort) throw new Error("The provider page has no cancel link")
      return { url: new URL(decodeEntities(abort[1]!), base), method: "GET" }
    }
    if (prompt === "login") {
      fields.set("login", options.accountId ?? "alice")
      fields.set("password", "any password")
    }
    return { url: action, method: "POST", body: fields }
  }
  throw new Error(`Unexpected provider page: ${stripTags(html).slice(0, 200)}`)
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`, "i").exec(tag)
  return match?.[1]
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    const lower = entity.toLowerCase()
    if (lower.startsWith("#x")) return String.fromCodePoint(parseInt(lower.slice(2), 16))
    if (lower.startsWith("#")) return String.fromCodePoint(parseInt(lower.slice(1), 10))
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[lower] ?? _
  })
}

function stripTags(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/gi, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
}

/**
 * Tessera's provider options for a client of `server`: an `oidc` provider
 * with its issuer and client credentials, allowed plain http (loopback only).
 *
 * @param server The running provider.
 * @param id The provider id in your configuration (the callback is `<basePath>/callback/<id>`).
 * @example
 * ```ts
 * const idp = await startOidcProvider({ redirectUris: [`${origin}/auth/callback/local`] })
 * const config = { providers: [localOidcProvider(idp)], ... }
 * ```
 *
 * @see [docs/testing.md: a local OpenID provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#a-local-openid-provider)
 */
export function localOidcProvider(server: OidcProviderServer, id = "local") {
  return {
    id,
    name: "Local IdP",
    type: "oidc" as const,
    issuer: server.issuer,
    clientId: server.clientId,
    clientSecret: server.clientSecret,
    dangerouslyAllowInsecureHttpRequests: true,
  }
}
