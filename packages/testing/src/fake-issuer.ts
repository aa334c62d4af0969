/**
 * An OAuth 2.0 / OpenID Connect authorization server on a {@link StandIn}: for
 * testing a provider configuration against the responses its documentation
 * describes, at its real URLs, without the network.
 *
 * - The authorization endpoint is the browser's visit: `authorize(location, sub)`
 *   checks the authorization URL and returns the callback URL with a fresh code.
 * - Codes are bound to the client, the `redirect_uri`, the PKCE challenge and
 *   the nonce; the token endpoint checks client authentication (the method you
 *   name, or your own check), the `redirect_uri` and the PKCE verifier, and
 *   spends each code once.
 * - ID Tokens are RS256 JWTs signed with a key published at `jwksUri`; a second
 *   key, published nowhere, signs tokens that must be refused. Both are fixed
 *   test keys (`test-keys.ts`): public, for stand-ins only.
 * - Discovery (`<issuer>/.well-known/openid-configuration`) when asked for.
 *
 * @example
 * ```ts
 * import { FakeIssuer, startStandIn } from "@tessera/testing"
 * const standIn = await startStandIn()
 * const issuer = await FakeIssuer.create({
 *   standIn,
 *   issuer: "https://accounts.example.com",
 *   authorizationEndpoint: "https://accounts.example.com/authorize",
 *   tokenEndpoint: "https://accounts.example.com/token",
 *   jwksUri: "https://accounts.example.com/jwks",
 *   clientId: "client",
 *   clientSecret: "secret",
 * })
 * // POST /auth/signin/<id> -> Location; the user approves as "ada":
 * const callback = issuer.authorize(location, "ada")
 * ```
 * @module
 */
import { json, type Recorded, type StandIn } from "./stand-in.js"
import { SIGNING_KEY, STRANGER_KEY } from "./test-keys.js"

/**
 * An authorization code the fake issuer handed out, with what it was issued for.
 *
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export interface CodeRecord {
  code: string
  clientId: string
  redirectUri: string
  codeChallenge: string | undefined
  nonce: string | undefined
  state: string | undefined
  scope: string | undefined
  /** Everything the authorization request carried. */
  params: URLSearchParams
  sub: string
  used: boolean
}

/**
 * How the client must authenticate at the token endpoint, or your own check of the request.
 *
 * @see [RFC 6749 §2.3, Client Authentication](https://www.rfc-editor.org/rfc/rfc6749.html#section-2.3)
 */
export type TokenEndpointAuth =
  | "client_secret_basic"
  | "client_secret_post"
  | "none"
  | ((request: Recorded, form: URLSearchParams) => boolean)

/**
 * Options of {@link FakeIssuer}: its endpoints, client, and the identity it signs in.
 *
 * @see {@link FakeIssuer}
 */
export interface FakeIssuerOptions {
  standIn: StandIn
  /** The issuer identifier, e.g. `https://accounts.google.com` (reached through StandIn.fetch) or a StandIn URL. */
  issuer: string
  authorizationEndpoint: string
  tokenEndpoint: string
  userinfoEndpoint?: string
  jwksUri?: string
  /** Serve discovery at `<issuer>/.well-known/openid-configuration` (default true when jwksUri is set). */
  discovery?: boolean
  /** Serve discovery here instead (a metadata URL that is not under the issuer). */
  discoveryUrl?: string
  /** Extra discovery fields. */
  metadata?: Record<string, unknown>
  clientId: string
  clientSecret?: string
  /** Default `client_secret_basic`. */
  authMethod?: TokenEndpointAuth
  /** Refuse token requests without a matching PKCE verifier (default: when a challenge was sent). */
  requirePkce?: boolean
  /**
   * The token response for a code: a JSON body (sent with status 200), or a
   * whole `Response`. Default: bearer token, 1 hour, an ID Token when `openid`
   * was in scope.
   */
  tokenResponse?: (
    record: CodeRecord,
    issuer: FakeIssuer,
  ) => Promise<Record<string, unknown> | Response> | Record<string, unknown> | Response
  /**
   * The answer to a refresh grant (`grant_type=refresh_token`, RFC 6749 §6), after the client
   * authenticated: a JSON body (sent with status 200), or a whole `Response`. Without it, refresh
   * grants are `unsupported_grant_type`.
   */
  refreshTokenResponse?: (
    form: URLSearchParams,
    issuer: FakeIssuer,
  ) => Promise<Record<string, unknown> | Response> | Record<string, unknown> | Response
  /** The userinfo response for an access token's record. */
  userinfo?: (record: CodeRecord, request: Recorded) => Response | Promise<Response>
  /** Claims added to the default ID Token. */
  idTokenClaims?: (record: CodeRecord) => Record<string, unknown>
}

interface Keys {
  privateKey: CryptoKey
  publicJwk: JsonWebKey
  strangerKey: CryptoKey
}

const RSA = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }

/** The fixed test keys, imported once per process. */
let keys: Promise<Keys> | undefined
function sharedKeys(): Promise<Keys> {
  keys ??= (async () => {
    const [privateKey, strangerKey] = await Promise.all([
      crypto.subtle.importKey("jwk", SIGNING_KEY, RSA, false, ["sign"]),
      crypto.subtle.importKey("jwk", STRANGER_KEY, RSA, false, ["sign"]),
    ])
    const { kty, n, e } = SIGNING_KEY
    return { privateKey, publicJwk: { kty, n, e }, strangerKey }
  })()
  return keys
}

const base64url = (bytes: Uint8Array | ArrayBuffer) =>
  Buffer.from(bytes as any).toString("base64url")
const encodeJson = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)))

/** The RFC 7638 thumbprint of an RSA public key. */
async function thumbprint(jwk: JsonWebKey): Promise<string> {
  const canonical = JSON.stringify({ e: jwk.e, kty: "RSA", n: jwk.n })
  return base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical)))
}

/**
 * An access token in the request: the Bearer (or `OAuth`) header, an `access_token` parameter
 * (or `oauth_token`, the name older APIs such as Foursquare's v2 use), or a path segment.
 */
function presentedToken(request: Recorded, known: (token: string) => boolean): string | undefined {
  const header = request.headers.get("authorization")
  if (header?.startsWith("Bearer ")) return header.slice(7)
  // The `OAuth` scheme of older APIs (Mailchimp's metadata endpoint).
  if (header?.startsWith("OAuth ")) return header.slice(6)
  const fromParams =
    new URLSearchParams(request.body).get("access_token") ??
    request.url.searchParams.get("access_token") ??
    request.url.searchParams.get("oauth_token")
  if (fromParams) return fromParams
  return request.url.pathname
    .split("/")
    .map((segment) => decodeURIComponent(segment))
    .find((segment) => segment !== "" && known(segment))
}

/**
 * An OAuth 2 / OpenID Connect authorization server on a {@link StandIn}: authorization, token,
 * userinfo and JWKS endpoints that check what the client sends (PKCE, client authentication,
 * redirect URI) and record it.
 *
 * @param options Its endpoints, client and identity.
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 * @see [OpenID Connect Core 1.0 §3.1, Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export class FakeIssuer {
  readonly codes = new Map<string, CodeRecord>()
  readonly accessTokens = new Map<string, CodeRecord>()
  privateKey!: CryptoKey
  kid!: string
  /** A second key, published nowhere: tokens it signs must be refused. */
  strangerKey!: CryptoKey

  private constructor(readonly options: FakeIssuerOptions) {}

  static async create(options: FakeIssuerOptions): Promise<FakeIssuer> {
    const issuer = new FakeIssuer(options)
    const { privateKey, publicJwk, strangerKey } = await sharedKeys()
    issuer.privateKey = privateKey
    issuer.strangerKey = strangerKey
    issuer.kid = await thumbprint(publicJwk)
    const { kty, n, e } = publicJwk
    issuer.install({ kty, n, e, kid: issuer.kid, alg: "RS256", use: "sig" })
    return issuer
  }

  get issuer(): string {
    return this.options.issuer
  }

  private install(publicJwk: Record<string, unknown>): void {
    const o = this.options
    const { standIn } = o
    if (o.jwksUri) standIn.on("GET", o.jwksUri, () => json({ keys: [publicJwk] }))
    if (o.discovery ?? !!o.jwksUri) {
      const wellKnown =
        o.discoveryUrl ?? `${o.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`
      standIn.on("GET", wellKnown, () =>
        json({
          issuer: o.issuer,
          authorization_endpoint: o.authorizationEndpoint,
          token_endpoint: o.tokenEndpoint,
          ...(o.userinfoEndpoint ? { userinfo_endpoint: o.userinfoEndpoint } : {}),
          ...(o.jwksUri ? { jwks_uri: o.jwksUri } : {}),
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          code_challenge_methods_supported: ["S256"],
          ...o.metadata,
        }),
      )
    }
    standIn.on("POST", o.tokenEndpoint, (request) => this.token(request))
    if (o.userinfoEndpoint) {
      for (const method of ["GET", "POST"]) {
        standIn.on(method, o.userinfoEndpoint, (request) => {
          const record = this.recordForBearer(request)
          if (!record)
            return json({ error: "invalid_token" }, 401, {
              "www-authenticate": 'Bearer error="invalid_token"',
            })
          return o.userinfo ? o.userinfo(record, request) : json({ sub: record.sub })
        })
      }
    }
  }

  /** The code record of the access token the request presents, if this issuer issued it. */
  recordForBearer(request: Recorded): CodeRecord | undefined {
    const token = this.presentedToken(request)
    return token ? this.accessTokens.get(token) : undefined
  }

  /** The access token the request presents (Bearer, parameter, or path segment it issued). */
  presentedToken(request: Recorded): string | undefined {
    return presentedToken(request, (t) => this.accessTokens.has(t))
  }

  /**
   * The browser's visit to the authorization endpoint, approved as `sub`:
   * checks the request and returns the callback URL with a fresh code.
   */
  authorize(location: string | URL, sub = "user-1", extra: Record<string, string> = {}): URL {
    const url = new URL(location)
    const expected = new URL(this.options.authorizationEndpoint)
    if (url.origin !== expected.origin || url.pathname !== expected.pathname)
      throw new Error(`Not this issuer's authorization endpoint: ${url.href}`)
    const params = url.searchParams
    if (params.get("client_id") !== this.options.clientId) throw new Error("unknown client_id")
    if (params.get("response_type") !== "code") throw new Error("response_type must be code")
    const redirectUri = params.get("redirect_uri")
    if (!redirectUri) throw new Error("no redirect_uri")
    if (params.get("code_challenge") && params.get("code_challenge_method") !== "S256")
      throw new Error("S256 only")
    const code = crypto.randomUUID()
    const record: CodeRecord = {
      code,
      clientId: params.get("client_id")!,
      redirectUri,
      codeChallenge: params.get("code_challenge") ?? undefined,
      nonce: params.get("nonce") ?? undefined,
      state: params.get("state") ?? undefined,
      scope: params.get("scope") ?? undefined,
      params: new URLSearchParams(params),
      sub,
      used: false,
    }
    this.codes.set(code, record)
    const callback = new URL(redirectUri)
    callback.searchParams.set("code", code)
    if (record.state !== undefined) callback.searchParams.set("state", record.state)
    for (const [key, value] of Object.entries(extra)) callback.searchParams.set(key, value)
    return callback
  }

  /** Signs an ID Token (RS256). `header` and the key can be overridden to make bad ones. */
  async idToken(
    claims: Record<string, unknown>,
    options: { key?: CryptoKey; header?: Record<string, unknown> } = {},
  ): Promise<string> {
    const header = { alg: "RS256", typ: "JWT", kid: this.kid, ...options.header }
    const input = `${encodeJson(header)}.${encodeJson(claims)}`
    const signature = await crypto.subtle.sign(
      "RSASSA-PKCS1-v1_5",
      options.key ?? this.privateKey,
      new TextEncoder().encode(input),
    )
    return `${input}.${base64url(signature)}`
  }

  /** The default, valid ID Token claims for a code. */
  defaultIdTokenClaims(record: CodeRecord): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000)
    return {
      iss: this.options.issuer,
      aud: this.options.clientId,
      sub: record.sub,
      iat: now,
      exp: now + 300,
      ...(record.nonce ? { nonce: record.nonce } : {}),
      ...this.options.idTokenClaims?.(record),
    }
  }

  private clientAuthenticated(request: Recorded, form: URLSearchParams): boolean {
    const o = this.options
    const method = o.authMethod ?? "client_secret_basic"
    if (typeof method === "function") return method(request, form)
    if (method === "client_secret_basic") {
      const credentials = basicCredentials(request)
      return (
        credentials?.id === o.clientId &&
        credentials.secret === o.clientSecret &&
        !form.has("client_secret")
      )
    }
    if (method === "client_secret_post") {
      return (
        form.get("client_id") === o.clientId &&
        form.get("client_secret") === o.clientSecret &&
        !request.headers.has("authorization")
      )
    }
    return (
      form.get("client_id") === o.clientId &&
      !form.has("client_secret") &&
      !request.headers.has("authorization")
    )
  }

  private async token(request: Recorded): Promise<Response> {
    const form = new URLSearchParams(request.body)
    const refresh = this.options.refreshTokenResponse
    if (form.get("grant_type") === "refresh_token" && refresh) {
      if (!this.clientAuthenticated(request, form)) return json({ error: "invalid_client" }, 401)
      const body = await refresh(form, this)
      return body instanceof Response ? body : json(body, 200, { "cache-control": "no-store" })
    }
    if (form.get("grant_type") !== "authorization_code")
      return json({ error: "unsupported_grant_type" }, 400)
    if (!this.clientAuthenticated(request, form)) return json({ error: "invalid_client" }, 401)
    const record = this.codes.get(form.get("code") ?? "")
    if (!record) return json({ error: "invalid_grant", error_description: "unknown code" }, 400)
    if (record.used)
      return json({ error: "invalid_grant", error_description: "code already used" }, 400)
    record.used = true
    if (form.get("redirect_uri") !== record.redirectUri)
      return json({ error: "invalid_grant", error_description: "redirect_uri mismatch" }, 400)
    const verifier = form.get("code_verifier")
    if (record.codeChallenge || this.options.requirePkce) {
      if (!verifier)
        return json({ error: "invalid_grant", error_description: "code_verifier missing" }, 400)
      const digest = base64url(
        await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)),
      )
      if (digest !== record.codeChallenge)
        return json({ error: "invalid_grant", error_description: "PKCE verification failed" }, 400)
    }
    const accessToken = `at-${crypto.randomUUID()}`
    this.accessTokens.set(accessToken, record)
    const body = this.options.tokenResponse
      ? await this.options.tokenResponse(record, this)
      : {
          access_token: accessToken,
          token_type: "Bearer",
          expires_in: 3600,
          scope: record.scope,
          ...(record.scope?.split(" ").includes("openid")
            ? { id_token: await this.idToken(this.defaultIdTokenClaims(record)) }
            : {}),
        }
    if (body instanceof Response) return body
    if (typeof body.access_token === "string" && !this.accessTokens.has(body.access_token))
      this.accessTokens.set(body.access_token, record)
    return json(body, 200, { "cache-control": "no-store" })
  }
}

/**
 * The client id and secret of an `Authorization: Basic` header (RFC 6749 §2.3.1 form-encoding
 * undone).
 *
 * @param request The recorded token request.
 * @see [RFC 6749 §2.3.1, Client Password](https://www.rfc-editor.org/rfc/rfc6749.html#section-2.3.1)
 */
export function basicCredentials(request: Recorded): { id: string; secret: string } | undefined {
  const header = request.headers.get("authorization")
  if (!header?.startsWith("Basic ")) return undefined
  const decoded = Buffer.from(header.slice(6), "base64").toString()
  const colon = decoded.indexOf(":")
  if (colon < 0) return undefined
  const unescape = (s: string) => decodeURIComponent(s.replace(/\+/g, " "))
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) }
}
