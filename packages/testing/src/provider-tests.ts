/**
 * The provider conformance suite: one set of tests that every OAuth 2.0 /
 * OpenID Connect provider configuration must pass, run against a loopback
 * stand-in of the provider's documented responses (through the provider's
 * `customFetch`, at its real URLs). Built on vitest: call it at the top level
 * of a test file. For e-mail providers see {@link runEmailProviderTests}, for
 * credentials {@link runCredentialsProviderTests}, for passkeys
 * {@link runWebAuthnProviderTests} (`runProviderTests` dispatches on the options' shape).
 *
 * Each run drives `Auth()` with real `Request`s, as a browser would:
 * POST `/auth/signin/<id>` with a CSRF token, the provider's authorization
 * endpoint (the stand-in approves, as one of two identities), the callback with
 * `code` and `state` (or a form_post), then `/auth/session`. It checks:
 *
 * - the authorization URL: endpoint, `client_id`, `redirect_uri`, `scope`, the
 *   checks (PKCE with S256, `state`, `nonce`: exactly those expected) and any
 *   extra parameters;
 * - the token request's client authentication (`client_secret_basic`,
 *   `client_secret_post`, `none`, or your own check);
 * - the session user (id, name, e-mail, image) made by the provider's `profile`,
 *   and the Account: `providerAccountId` as a string, the token fields stored;
 * - `verifiedEmail` on the raw profile, for an identity whose address the
 *   provider vouches for and one whose address it does not;
 * - an error from the provider at the callback (`error=access_denied`), and a
 *   failed token request in the provider's documented error shape, each ending
 *   on the sign-in page with `error=OAuthCallbackError` and no session;
 * - `http:` endpoints refused, unless `dangerouslyAllowInsecureHttpRequests`.
 *
 * @example
 * ```ts
 * import { runProviderTests } from "@tessera/testing/suites"
 * import Acme from "../src/acme.js"
 *
 * const user = (id: string, verified: boolean) => ({ id, name: "Ada", email: "ada@acme.example", verified })
 * runProviderTests({
 *   provider: Acme,
 *   authorization: { url: "https://acme.example/oauth/authorize", scope: "profile email", checks: ["pkce"] },
 *   token: { url: "https://acme.example/oauth/token", clientAuth: "client_secret_basic" },
 *   resources: [{ url: "https://api.acme.example/me", response: ({ identity }) => identity.profile }],
 *   identities: {
 *     verified: {
 *       sub: "1", profile: user("1", true),
 *       expect: { user: { id: "1", name: "Ada", email: "ada@acme.example", image: null }, verifiedEmail: "ada@acme.example" },
 *     },
 *     unverified: {
 *       sub: "2", profile: user("2", false),
 *       expect: { user: { id: "2", name: "Ada", email: "ada@acme.example", image: null }, verifiedEmail: null },
 *     },
 *   },
 * })
 * ```
 * @module
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { standInTeardown, type SuiteLifetime } from "./running-vitest.js"
import { customFetch, type AuthConfig } from "@tessera/core"
import type { OAuthConfig, TokenSet } from "@tessera/core/providers"
import { AppBrowser, setsSession } from "./browser.js"
import {
  runEmailProviderTests,
  type EmailProviderTestHandle,
  type EmailProviderTestOptions,
} from "./email-provider-tests.js"
import {
  basicCredentials,
  FakeIssuer,
  type CodeRecord,
  type TokenEndpointAuth,
} from "./fake-issuer.js"
import { json, StandIn, type Recorded } from "./stand-in.js"
import { runSmtpProviderTests, type SmtpProviderTestOptions } from "./smtp-provider-tests.js"
import {
  runCredentialsProviderTests,
  type CredentialsProviderTestOptions,
} from "./credentials-provider-tests.js"
import {
  runWebAuthnProviderTests,
  type WebAuthnProviderTestOptions,
} from "./webauthn-provider-tests.js"

type Awaitable<T> = T | PromiseLike<T>

/**
 * The app's origin in every run.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export const PROVIDER_TEST_ORIGIN = "http://localhost:3000"
const SECRET = "tessera-provider-tests-secret-0123456789abcdef"

/**
 * The user a provider's `profile` must make from an identity.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface ExpectedUser {
  id: string
  name: string | null
  email: string | null
  image: string | null
}

/**
 * One account at the provider, and what signing in with it must produce.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface ProviderTestIdentity {
  /** The account's subject: the ID Token's `sub`, and the key the stand-in's resources find it by. */
  sub: string
  /** ID Token claims (OIDC providers), merged over `iss`, `aud`, `sub`, `iat`, `exp` and `nonce`. */
  claims?: Record<string, unknown>
  /** Parameters the provider sends to the callback besides `code` and `state` (Apple's `user`). */
  callbackParams?: Record<string, string>
  expect: {
    /**
     * The session user; `id` is the one `profile()` gives (the provider's), which becomes
     * the Account's `providerAccountId`: the `jwt` callback's `user` gets an id of its own.
     */
    user: ExpectedUser
    /** The Account's `providerAccountId`. Default `user.id`. */
    providerAccountId?: string
    /** What the provider's `verifiedEmail` reports for this account's raw profile. */
    verifiedEmail: string | null
  }
}

/**
 * What a token response is made from.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface TokenResponseContext<I extends ProviderTestIdentity> {
  identity: I
  record: CodeRecord
  /** A fresh access token, already known to the stand-in's resources: send this one. */
  accessToken: string
  refreshToken: string
  /** A valid ID Token for the identity (OIDC providers only), RS256. */
  idToken: string | undefined
  /** Its claims: `iss`, `aud`, `sub`, `iat`, `exp`, `nonce` and the identity's (to sign another way). */
  claims: Record<string, unknown>
  clientId: string
}

/**
 * What a resource (userinfo, profile API) answers from.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface ResourceContext<I extends ProviderTestIdentity> {
  identity: I
  request: Recorded
  accessToken: string
}

/**
 * Options of `runProviderTests` for an OAuth 2 / OpenID Connect provider: its endpoints, client
 * authentication, profile resources and identities.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface OAuthProviderTestOptions<I extends ProviderTestIdentity = ProviderTestIdentity> {
  /** The provider factory (the module's default export). */
  provider: (options: any) => OAuthConfig<any>
  /** Factory options besides the client credentials: an issuer, a tenant, a base URL. */
  options?: Record<string, unknown>
  /** The `describe` block's name. Default `provider <id>`. */
  name?: string
  /** Default `tessera-test-client`. */
  clientId?: string
  /** Default `tessera-test-secret`. */
  clientSecret?: string
  /** OpenID Connect providers: the issuer, its JWKS, and what its discovery document adds. */
  issuer?: {
    url: string
    jwksUri: string
    /** Serve `<issuer>/.well-known/openid-configuration` (or `wellKnown`). Default true. */
    discovery?: boolean
    /** Where the metadata is served, when not under the issuer. */
    wellKnown?: string
    /** Extra discovery fields (`userinfo_endpoint`, ...). */
    metadata?: Record<string, unknown>
  }
  /** The expected authorization request. */
  authorization: {
    /** The endpoint: origin and path. */
    url: string
    /** The `scope` parameter, or null when none is sent. */
    scope: string | null
    /** Exactly the checks the provider must use. */
    checks: Array<"pkce" | "state" | "nonce">
    /** Other parameters the URL must carry. */
    params?: Record<string, string>
  }
  token: {
    url: string
    /** How the client must authenticate; the stand-in refuses anything else. */
    clientAuth: TokenEndpointAuth
    /** The documented success response. Default: bearer token, 1 hour, refresh token, scope, ID Token (OIDC). */
    response?: (context: TokenResponseContext<I>) => Awaitable<Record<string, unknown> | Response>
    /** The documented answer to a bad code. Default: 400 `{ error: "invalid_grant" }`. */
    error?: (context: TokenResponseContext<I>) => Awaitable<Record<string, unknown> | Response>
  }
  /** The provider's APIs read after the token exchange; requests without a token it issued get 401. */
  resources?: Array<{
    method?: "GET" | "POST"
    url: string
    /** A `Response`, or a body sent as JSON. */
    response: (context: ResourceContext<I>) => Awaitable<unknown>
  }>
  /**
   * An account whose e-mail the provider vouches for, and one whose e-mail it
   * does not (or has none); more, under other names, for your own tests.
   */
  identities: { verified: I; unverified: I; [name: string]: I }
  /** Token fields the Account must store, besides the issued access, refresh and ID tokens. */
  account?: Record<string, unknown>
  /** Names of tests not to run. */
  skipTests?: string[]
}

/**
 * What one sign-in through the suite's stand-in produced.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface ProviderSignIn {
  /** The response to POST signin/<id>. */
  start: Response
  /** The authorization URL the app sent the browser to. */
  location: URL
  /** The response to the callback. */
  done: Response
  /** `/auth/session`, or null when the callback set no session. */
  session: any
  /** The `jwt` callback's `user` and `account`, and the provider's raw profile and tokens. */
  seen: { user?: any; account?: any; profile?: any; tokens?: TokenSet }
  /** The token request the stand-in received. */
  tokenRequest: Recorded | undefined
  /** The token response body the stand-in sent. */
  tokenBody: Record<string, unknown> | undefined
  /** Everything logged through `logger.error`. */
  errors: Error[]
}

/**
 * Options of a handle's `signIn`: factory options, the outcome, the identity.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface ProviderSignInOptions {
  /** Factory options added to the suite's. */
  options?: Record<string, unknown>
  /** `denied`: the provider sends `error=access_denied`; `tokenError`: the token endpoint refuses the code. */
  outcome?: "approved" | "denied" | "tokenError"
  /** Every endpoint (and the issuer) over `http:`, with `dangerouslyAllowInsecureHttpRequests`. */
  insecure?: boolean
}

/**
 * Access to a running suite, for a provider's own extra tests (in the same file).
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface ProviderTestHandle<I extends ProviderTestIdentity = ProviderTestIdentity> {
  /** Available once the suite's `beforeAll` ran. */
  readonly standIn: StandIn
  readonly issuer: FakeIssuer
  readonly clientId: string
  readonly clientSecret: string
  /** One sign-in as `identity` (or the identity with that `sub`), the same way the suite's tests do it. */
  signIn(identity: I | string, options?: ProviderSignInOptions): Promise<ProviderSignIn>
}

const toHttp = (url: string) => url.replace(/^https:/, "http:")

function endpointUrl(value: unknown): string | undefined {
  if (typeof value === "string") return value
  if (value && typeof value === "object" && typeof (value as { url?: unknown }).url === "string")
    return (value as { url: string }).url
  return undefined
}

function mapStrings(value: unknown, map: (s: string) => string): unknown {
  if (typeof value === "string") return map(value)
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map))
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]))
  return value
}

/** What the contract says when a provider sets no `verifiedEmail`. */
function defaultVerifiedEmail(type: string, profile: any): string | null {
  return type === "oidc" && profile?.email_verified === true && typeof profile.email === "string"
    ? profile.email
    : null
}

/** What core logged: server faults (`error`) and, with `debug: true`, the refusals a client caused. */
function recorder() {
  const errors: Error[] = []
  return {
    errors,
    logger: {
      error: (error: Error) => void errors.push(error),
      warn: () => {},
      debug: (_message: string, metadata?: unknown) => {
        const error = (metadata as { error?: unknown } | undefined)?.error
        if (error instanceof Error) errors.push(error)
      },
    },
  }
}

function describeErrors(errors: Error[]): string {
  return errors.map((e) => `${e.name}: ${e.message}`).join("; ") || "nothing logged"
}

/**
 * Registers the conformance tests of one provider: OAuth/OIDC (its endpoints), e-mail through a
 * mail API (`api`) or SMTP (`smtp`), credentials (`credentials`), or passkeys (`webauthn`).
 * Returns, for OAuth and mail APIs, a handle for further tests of that provider's own quirks.
 *
 * @param options The provider and its endpoints (OAuth/OIDC), its mail API (`api`), `smtp`,
 *   `credentials`, or `webauthn`.
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export function runProviderTests<I extends ProviderTestIdentity>(
  options: OAuthProviderTestOptions<I>,
): ProviderTestHandle<I>
export function runProviderTests(options: EmailProviderTestOptions): EmailProviderTestHandle
export function runProviderTests(options: SmtpProviderTestOptions): void
export function runProviderTests(options: CredentialsProviderTestOptions): void
export function runProviderTests(options: WebAuthnProviderTestOptions): void
export function runProviderTests(
  options:
    | OAuthProviderTestOptions<any>
    | EmailProviderTestOptions
    | SmtpProviderTestOptions
    | CredentialsProviderTestOptions
    | WebAuthnProviderTestOptions,
): ProviderTestHandle<any> | EmailProviderTestHandle | void {
  if ("api" in options) return runEmailProviderTests(options)
  if ("smtp" in options) return runSmtpProviderTests(options)
  if ("credentials" in options) return runCredentialsProviderTests(options)
  if ("webauthn" in options) return runWebAuthnProviderTests(options)
  return runOAuthProviderTests(options)
}

/**
 * Registers the conformance tests of an OAuth 2 / OpenID Connect provider (what `runProviderTests`
 * runs without `api`).
 *
 * @param spec The provider and its endpoints.
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export function runOAuthProviderTests<I extends ProviderTestIdentity>(
  spec: OAuthProviderTestOptions<I>,
): ProviderTestHandle<I> {
  const clientId = spec.clientId ?? "tessera-test-client"
  const clientSecret = spec.clientSecret ?? "tessera-test-secret"
  const baseOptions = { ...spec.options, clientId, clientSecret }
  const made = spec.provider(baseOptions)
  const id = made.options?.id ?? made.id
  const type = made.type
  const identities = Object.values(spec.identities)
  const bySub = new Map(identities.map((identity) => [identity.sub, identity]))
  if (bySub.size !== identities.length)
    throw new TypeError("runProviderTests: every identity needs its own sub")
  const skip = new Set(spec.skipTests)
  const codesToRefuse = new Set<string>()
  const issuedBodies = new Map<string, Record<string, unknown>>()

  let standIn!: StandIn
  let secure!: FakeIssuer
  let insecure!: FakeIssuer

  async function makeIssuer(url: (s: string) => string): Promise<FakeIssuer> {
    const oidc = spec.issuer
    return FakeIssuer.create({
      standIn,
      issuer: url(oidc?.url ?? new URL(spec.authorization.url).origin),
      authorizationEndpoint: url(spec.authorization.url),
      tokenEndpoint: url(spec.token.url),
      jwksUri: oidc ? url(oidc.jwksUri) : undefined,
      discovery: oidc ? (oidc.discovery ?? true) : false,
      discoveryUrl: oidc?.wellKnown ? url(oidc.wellKnown) : undefined,
      metadata: mapStrings(oidc?.metadata ?? {}, url) as Record<string, unknown>,
      clientId,
      clientSecret,
      authMethod: spec.token.clientAuth,
      idTokenClaims: (record) => bySub.get(record.sub)?.claims ?? {},
      tokenResponse: async (record, issuer) => {
        const identity = bySub.get(record.sub)!
        const context: TokenResponseContext<I> = {
          identity,
          record,
          accessToken: `at-${crypto.randomUUID()}`,
          refreshToken: `rt-${crypto.randomUUID()}`,
          idToken: oidc ? await issuer.idToken(issuer.defaultIdTokenClaims(record)) : undefined,
          claims: issuer.defaultIdTokenClaims(record),
          clientId,
        }
        issuer.accessTokens.set(context.accessToken, record)
        const refuse = codesToRefuse.has(record.code)
        const body = refuse
          ? await (spec.token.error ?? defaultTokenError)(context)
          : await (spec.token.response ?? defaultTokenResponse)(context)
        if (!refuse && !(body instanceof Response)) issuedBodies.set(record.code, body)
        if (!refuse && body instanceof Response)
          issuedBodies.set(record.code, await body.clone().json())
        return body
      },
    })
  }

  async function answerResource(
    handler: NonNullable<OAuthProviderTestOptions<I>["resources"]>[number]["response"],
    request: Recorded,
  ): Promise<Response> {
    const issuer = secure.recordForBearer(request) ? secure : insecure
    const record = issuer.recordForBearer(request)
    if (!record)
      return json({ error: "invalid_token" }, 401, {
        "www-authenticate": 'Bearer error="invalid_token"',
      })
    const token = issuer.presentedToken(request)!
    const answer = await handler({ identity: bySub.get(record.sub)!, request, accessToken: token })
    return answer instanceof Response ? answer : json(answer)
  }

  beforeAll(async () => {
    standIn = await StandIn.start()
    secure = await makeIssuer((s) => s)
    insecure = await makeIssuer(toHttp)
    for (const resource of spec.resources ?? []) {
      for (const url of [resource.url, toHttp(resource.url)]) {
        standIn.on(resource.method ?? "GET", url, (request) =>
          answerResource(resource.response, request),
        )
      }
    }
  })
  // Until the end of the file when the main entry runs the suite (`running-vitest.ts`).
  ;((spec as SuiteLifetime)[standInTeardown] ?? afterAll)(() => standIn?.stop())

  /** Every URL the provider is configured with, over http:. */
  function insecureOverrides(): Record<string, unknown> {
    const configured = made.options ?? {}
    const overrides: Record<string, unknown> = {}
    for (const key of ["authorization", "token", "userinfo"] as const) {
      const url =
        endpointUrl((configured as Record<string, unknown>)[key]) ?? endpointUrl(made[key])
      if (url) overrides[key] = toHttp(url)
    }
    for (const key of ["issuer", "wellKnown", "jwks_endpoint"] as const) {
      const url = (configured as Record<string, unknown>)[key] ?? made[key]
      if (typeof url === "string") overrides[key] = toHttp(url)
    }
    return overrides
  }

  /** The provider, its profile callback instrumented to record the raw profile and tokens. */
  function providerConfig(extra: Record<string, unknown>, seen: ProviderSignIn["seen"]) {
    const factoryOptions = { ...baseOptions, [customFetch]: standIn.fetch, ...extra }
    const plain = spec.provider(factoryOptions)
    const original = plain.options?.profile ?? plain.profile
    if (!original) return plain
    return spec.provider({
      ...factoryOptions,
      profile(profile: any, tokens: TokenSet) {
        seen.profile = structuredClone(profile)
        seen.tokens = { ...tokens }
        return original(profile, tokens)
      },
    })
  }

  async function signIn(who: I | string, run: ProviderSignInOptions = {}): Promise<ProviderSignIn> {
    const identity = typeof who === "string" ? bySub.get(who) : who
    if (!identity) throw new TypeError(`runProviderTests: no identity with sub "${String(who)}"`)
    const seen: ProviderSignIn["seen"] = {}
    const { errors, logger } = recorder()
    const extra = run.insecure
      ? { ...insecureOverrides(), dangerouslyAllowInsecureHttpRequests: true }
      : {}
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      debug: true,
      logger,
      providers: [providerConfig({ ...extra, ...run.options }, seen)],
      callbacks: {
        jwt({ token, user, account, profile }) {
          if (account) {
            seen.user = user
            seen.account = account
            seen.profile ??= profile
          }
          return token
        },
      },
    }
    const browser = new AppBrowser(config, PROVIDER_TEST_ORIGIN)
    const start = await browser.startSignIn(id)
    if (start.status !== 302 || !start.headers.get("location"))
      throw new Error(
        `POST /auth/signin/${id} answered ${start.status}, not a redirect (${describeErrors(errors)})`,
      )
    const location = new URL(start.headers.get("location")!)
    const issuer = run.insecure ? insecure : secure
    let callback: URL
    if (run.outcome === "denied") {
      callback = new URL(location.searchParams.get("redirect_uri")!)
      callback.searchParams.set("error", "access_denied")
      callback.searchParams.set("error_description", "The user denied the request.")
      const state = location.searchParams.get("state")
      if (state) callback.searchParams.set("state", state)
    } else {
      callback = issuer.authorize(location, identity.sub, identity.callbackParams)
      if (run.outcome === "tokenError") codesToRefuse.add(callback.searchParams.get("code")!)
    }
    const code = callback.searchParams.get("code")
    const done =
      location.searchParams.get("response_mode") === "form_post"
        ? await browser.request(`${callback.origin}${callback.pathname}`, {
            body: callback.searchParams,
            headers: { origin: location.origin, "sec-fetch-site": "cross-site" },
          })
        : await browser.request(callback.href)
    const session = setsSession(done) ? await browser.session() : null
    const tokenRequest = code
      ? standIn
          .requestsTo(issuer.options.tokenEndpoint)
          .find((r) => new URLSearchParams(r.body).get("code") === code)
      : undefined
    const tokenBody = code ? issuedBodies.get(code) : undefined
    return { start, location, done, session, seen, tokenRequest, tokenBody, errors }
  }

  function verifiedEmailOf(profile: unknown, tokens: TokenSet): string | null {
    const rule = made.options?.verifiedEmail ?? made.verifiedEmail
    const result = rule
      ? rule(structuredClone(profile), { ...tokens })
      : defaultVerifiedEmail(type, profile)
    return result ?? null
  }

  function expectClientAuth(request: Recorded | undefined): void {
    expect(request, "the token endpoint received no request for the code").toBeDefined()
    const form = new URLSearchParams(request!.body)
    const auth = spec.token.clientAuth
    if (typeof auth === "function") {
      expect(auth(request!, form), "the custom client authentication check").toBe(true)
    } else if (auth === "client_secret_basic") {
      expect(basicCredentials(request!)).toEqual({ id: clientId, secret: clientSecret })
      expect(form.has("client_secret")).toBe(false)
    } else {
      expect(form.get("client_id")).toBe(clientId)
      expect(request!.headers.has("authorization")).toBe(false)
      if (auth === "client_secret_post") expect(form.get("client_secret")).toBe(clientSecret)
      else expect(form.has("client_secret")).toBe(false)
    }
  }

  function expectSignedIn(result: ProviderSignIn, identity: I): void {
    const { done, session, seen, errors } = result
    expect(done.status).toBe(302)
    expect(session, `no session: ${describeErrors(errors)}`).not.toBeNull()
    const { id: userId, ...shown } = identity.expect.user
    expect(session.user).toEqual(shown)
    // The user's id is never the provider's (ids are unique only within a provider).
    expect(seen.user?.id).toEqual(expect.any(String))
    expect(seen.user?.id).not.toBe(userId)
  }

  function expectAccount(result: ProviderSignIn, identity: I): void {
    const { seen, tokenBody } = result
    const account = seen.account
    expect(account).toMatchObject({
      provider: id,
      type,
      providerAccountId: identity.expect.providerAccountId ?? identity.expect.user.id,
    })
    expect(typeof account.providerAccountId).toBe("string")
    for (const field of ["access_token", "refresh_token", "id_token"]) {
      if (typeof tokenBody?.[field] === "string") expect(account[field]).toBe(tokenBody[field])
    }
    if (typeof tokenBody?.token_type === "string")
      expect(account.token_type).toBe(tokenBody.token_type.toLowerCase())
    // `expires_in: 0` is how some providers (Mailchimp) say the token never expires.
    if (typeof tokenBody?.expires_in === "number" && tokenBody.expires_in > 0) {
      const expected = Date.now() / 1000 + tokenBody.expires_in
      expect(Math.abs(account.expires_at - expected)).toBeLessThan(60)
    }
    if (spec.account) expect(account).toMatchObject(spec.account)
  }

  function expectVerifiedEmail(result: ProviderSignIn, identity: I): void {
    const { seen, session } = result
    const raw = seen.profile
    expect(raw, "the raw profile was not seen").toBeDefined()
    const verified = verifiedEmailOf(raw, seen.tokens ?? seen.account ?? {})
    expect(verified).toBe(identity.expect.verifiedEmail)
    // Core links by e-mail only when the vouched-for address is the user's: a
    // verified address that is not the session's e-mail would never count.
    if (verified !== null) expect(session.user.email).toBe(verified)
  }

  /** Back on the sign-in page with `error=OAuthCallbackError` (and `code=access_denied` when the user said no). */
  function expectRefused(result: ProviderSignIn, code: string | null = null): void {
    expect(result.done.status).toBe(302)
    const location = new URL(result.done.headers.get("location")!)
    expect(`${location.origin}${location.pathname}`).toBe(`${PROVIDER_TEST_ORIGIN}/auth/signin`)
    expect(location.searchParams.get("error")).toBe("OAuthCallbackError")
    expect(location.searchParams.get("code")).toBe(code)
    expect(setsSession(result.done)).toBe(false)
    expect(result.session).toBeNull()
    expect(result.errors.length).toBeGreaterThan(0)
  }

  const maybe = (name: string, fn: () => Promise<void>) =>
    skip.has(name) ? test.skip(name, fn) : test(name, fn)

  describe(spec.name ?? `provider ${id}`, () => {
    maybe("authorization request", async () => {
      const { location } = await signIn(spec.identities.verified)
      const q = location.searchParams
      expect(`${location.origin}${location.pathname}`).toBe(spec.authorization.url)
      expect(q.get("response_type")).toBe("code")
      expect(q.get("client_id")).toBe(clientId)
      expect(q.get("redirect_uri")).toBe(`${PROVIDER_TEST_ORIGIN}/auth/callback/${id}`)
      if (spec.authorization.scope === null) expect(q.has("scope")).toBe(false)
      else expect(q.get("scope")).toBe(spec.authorization.scope)
      const checks = spec.authorization.checks
      if (checks.includes("pkce")) {
        expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)
        expect(q.get("code_challenge_method")).toBe("S256")
      } else {
        expect(q.has("code_challenge")).toBe(false)
      }
      expect(q.has("state"), "state").toBe(checks.includes("state"))
      expect(q.has("nonce"), "nonce").toBe(checks.includes("nonce"))
      for (const [key, value] of Object.entries(spec.authorization.params ?? {}))
        expect(q.get(key), key).toBe(value)
      expect(q.has("client_secret")).toBe(false)
      expect(location.href).not.toContain(clientSecret)
    })

    maybe("sign-in with a verified e-mail", async () => {
      const identity = spec.identities.verified
      const result = await signIn(identity)
      expectSignedIn(result, identity)
      expectClientAuth(result.tokenRequest)
      expectAccount(result, identity)
      expectVerifiedEmail(result, identity)
    })

    maybe("sign-in with an unverified e-mail", async () => {
      const identity = spec.identities.unverified
      const result = await signIn(identity)
      expectSignedIn(result, identity)
      expectAccount(result, identity)
      expectVerifiedEmail(result, identity)
    })

    maybe("an error from the provider at the callback", async () => {
      expectRefused(await signIn(spec.identities.verified, { outcome: "denied" }), "access_denied")
    })

    maybe("an error from the token endpoint", async () => {
      const result = await signIn(spec.identities.verified, { outcome: "tokenError" })
      expect(result.tokenRequest).toBeDefined()
      expectRefused(result)
    })

    maybe("http: endpoints are refused", async () => {
      const { errors, logger } = recorder()
      const before = standIn.requests.length
      const browser = new AppBrowser(
        {
          secret: SECRET,
          trustHost: true,
          logger,
          providers: [providerConfig(insecureOverrides(), {})],
        },
        PROVIDER_TEST_ORIGIN,
      )
      const start = await browser.startSignIn(id)
      expect(start.status).toBe(500)
      expect(start.headers.get("location") ?? "").not.toMatch(/^http:\/\/(?!localhost:3000)/)
      expect(describeErrors(errors)).toMatch(/http:/)
      expect(standIn.requests.slice(before)).toEqual([])
    })

    maybe("http: endpoints with dangerouslyAllowInsecureHttpRequests", async () => {
      const identity = spec.identities.verified
      const result = await signIn(identity, { insecure: true })
      expect(result.location.protocol).toBe("http:")
      expectSignedIn(result, identity)
    })
  })

  return {
    get standIn() {
      return standIn
    },
    get issuer() {
      return secure
    },
    clientId,
    clientSecret,
    signIn,
  }
}

function defaultTokenResponse(context: TokenResponseContext<any>): Record<string, unknown> {
  return {
    access_token: context.accessToken,
    token_type: "Bearer",
    expires_in: 3600,
    refresh_token: context.refreshToken,
    ...(context.record.scope ? { scope: context.record.scope } : {}),
    ...(context.idToken ? { id_token: context.idToken } : {}),
  }
}

function defaultTokenError(): Response {
  return json(
    { error: "invalid_grant", error_description: "The authorization code is invalid or expired." },
    400,
  )
}
