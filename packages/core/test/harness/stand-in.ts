/**
 * The OAuth peers of the flows/oauth and providers tests:
 *
 * - `StandIn`: a loopback HTTP server that answers as any host. A provider's
 *   `customFetch` (StandIn.fetch) sends `https://api.github.com/user` to
 *   `http://127.0.0.1:<port>/__vhost/https/api.github.com/user`, so built-in
 *   providers are tested with their real default URLs.
 * - `FakeIssuer`: an authorization server on a StandIn: authorization codes
 *   bound to client, redirect_uri, PKCE challenge and nonce; a token endpoint
 *   that checks client authentication and PKCE; ID Tokens minted with jose,
 *   which tests can make wrong on purpose (audience, issuer, expiry, alg, signature).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair, SignJWT, calculateJwkThumbprint } from "jose"

// ---------------------------------------------------------------- stand-in server

export interface Recorded {
  method: string
  /** The URL as the client meant it (the virtual host for `__vhost` requests). */
  url: URL
  headers: Headers
  body: string
}

type Handler = (request: Recorded) => Response | Promise<Response>

export class StandIn {
  readonly requests: Recorded[] = []
  private readonly routes = new Map<string, Handler>()

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<StandIn> {
    let standIn: StandIn | undefined
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        standIn!
          .handle(
            req.method ?? "GET",
            req.url ?? "/",
            req.headers as Record<string, string>,
            Buffer.concat(chunks).toString(),
          )
          .then(async (response) => {
            const headers: Record<string, string> = {}
            response.headers.forEach((v, k) => (headers[k] = v))
            res.writeHead(response.status, headers)
            res.end(Buffer.from(await response.arrayBuffer()))
          })
          .catch((error) => res.writeHead(500).end(String(error)))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as AddressInfo
    standIn = new StandIn(server, `http://127.0.0.1:${port}`)
    return standIn
  }

  /** Answers `method url` (absolute URL, no query) with `handler`. */
  on(method: string, url: string, handler: Handler): this {
    const u = new URL(url)
    this.routes.set(`${method} ${u.origin}${u.pathname}`, handler)
    return this
  }

  private async handle(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<Response> {
    let url: URL
    const vhost = /^\/__vhost\/(https?)\/([^/]+)(\/.*)?$/.exec(path)
    if (vhost) url = new URL(`${vhost[1]}://${vhost[2]}${vhost[3] ?? "/"}`)
    else url = new URL(path, this.origin)
    const recorded: Recorded = { method, url, headers: new Headers(headers), body }
    this.requests.push(recorded)
    const handler = this.routes.get(`${method} ${url.origin}${url.pathname}`)
    if (!handler) return new Response(`no route for ${method} ${url.href}`, { status: 404 })
    return handler(recorded)
  }

  /** A `customFetch` that sends every request to this server, keeping the intended URL. */
  readonly fetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const target =
      url.origin === this.origin
        ? url.href
        : `${this.origin}/__vhost/${url.protocol.slice(0, -1)}/${url.host}${url.pathname}${url.search}`
    return fetch(target, init)
  }

  requestsTo(url: string): Recorded[] {
    const u = new URL(url)
    return this.requests.filter((r) => r.url.origin === u.origin && r.url.pathname === u.pathname)
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve())
      this.server.closeAllConnections()
    })
  }
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  })
}

// ---------------------------------------------------------------- fake authorization server

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
  /** Extra discovery fields. */
  metadata?: Record<string, unknown>
  clientId: string
  clientSecret?: string
  authMethod?: "client_secret_basic" | "client_secret_post" | "none"
  /** Refuse token requests without a matching PKCE verifier (default: when a challenge was sent). */
  requirePkce?: boolean
  /** The token response for a code. Default: bearer token, 1 hour, an ID Token when `openid` was in scope. */
  tokenResponse?: (
    record: CodeRecord,
    issuer: FakeIssuer,
  ) => Promise<Record<string, unknown>> | Record<string, unknown>
  /** The userinfo response for an access token's record. */
  userinfo?: (record: CodeRecord, request: Recorded) => Response | Promise<Response>
  /** Claims added to the default ID Token. */
  idTokenClaims?: (record: CodeRecord) => Record<string, unknown>
}

/** RSA key generation is slow on a busy machine: one signing key (and one stranger key) per test file. */
let keys:
  Promise<{ privateKey: CryptoKey; publicKey: CryptoKey; strangerKey: CryptoKey }> | undefined
function sharedKeys() {
  keys ??= Promise.all([
    generateKeyPair("RS256", { extractable: true }),
    generateKeyPair("RS256"),
  ]).then(([pair, stranger]) => ({
    ...pair,
    strangerKey: stranger.privateKey,
  }))
  return keys
}

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
    const { privateKey, publicKey, strangerKey } = await sharedKeys()
    issuer.privateKey = privateKey
    issuer.strangerKey = strangerKey
    const jwk = await exportJWK(publicKey)
    issuer.kid = await calculateJwkThumbprint(jwk)
    issuer.install({ ...jwk, kid: issuer.kid, alg: "RS256", use: "sig" })
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
      const wellKnown = `${o.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`
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

  recordForBearer(request: Recorded): CodeRecord | undefined {
    const header = request.headers.get("authorization")
    const token = header?.startsWith("Bearer ")
      ? header.slice(7)
      : (new URLSearchParams(request.body).get("access_token") ??
        request.url.searchParams.get("access_token"))
    return token ? this.accessTokens.get(token) : undefined
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
    for (const [k, v] of Object.entries(extra)) callback.searchParams.set(k, v)
    return callback
  }

  /** Signs an ID Token. `header` and the key can be overridden to make bad ones. */
  async idToken(
    claims: Record<string, unknown>,
    options: { key?: CryptoKey; header?: Record<string, unknown> } = {},
  ): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: this.kid, ...options.header } as any)
      .sign(options.key ?? this.privateKey)
  }

  /** The default, valid ID Token for a code. */
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
    if (method === "client_secret_basic") {
      const header = request.headers.get("authorization")
      if (!header?.startsWith("Basic ")) return false
      const [id, secret] = Buffer.from(header.slice(6), "base64")
        .toString()
        .split(":")
        .map((s) => decodeURIComponent(s.replace(/\+/g, " ")))
      return id === o.clientId && secret === o.clientSecret && !form.has("client_secret")
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
      const digest = Buffer.from(
        await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)),
      ).toString("base64url")
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
    if (typeof body.access_token === "string" && !this.accessTokens.has(body.access_token))
      this.accessTokens.set(body.access_token, record)
    return json(body, 200, { "cache-control": "no-store" })
  }
}
