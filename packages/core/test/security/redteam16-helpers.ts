/**
 * Red team, round 16: one identity provider stood up as a FakeIssuer on a StandIn (reached
 * through `customFetch`), an app with that provider on a real adapter (the memory adapter or a
 * migrated SQLite file) holding the victim's verified account, and a sign-in driven through
 * `Auth()`. Each test sets what the provider answers (`answer.claims` for the ID Token,
 * `answer.userinfo` for the userinfo JSON) before it signs in.
 */
import { Auth, customFetch, type AuthConfig } from "@tessera/core"
import type { AdapterUser } from "@tessera/core/adapters"
import type { Provider } from "@tessera/core/providers"
import { AppBrowser, FakeIssuer, json, setsSession, type StandIn } from "@tessera/testing"
import { memoryBackend, sqliteBackend, type Backend } from "../harness/backends.js"
import { recordingLogger, SECRET } from "../harness/index.js"

export const ORIGIN = "http://localhost:3000"
export const VICTIM = "victim@mail.test"

/** Where a provider's endpoints are; `userinfo` for OAuth 2 providers, `jwks` for OpenID ones. */
export interface IdpShape {
  issuer: string
  authorize: string
  token: string
  userinfo?: string
  jwks?: string
}

/** appleid.apple.com: discovery, keys, and the authorization and token endpoints. */
export const APPLE: IdpShape = {
  issuer: "https://appleid.apple.com",
  authorize: "https://appleid.apple.com/auth/authorize",
  token: "https://appleid.apple.com/auth/token",
  jwks: "https://appleid.apple.com/auth/keys",
}

/**
 * What the stand-in IdP answers: ID Token claims over the defaults, and the userinfo JSON (or
 * its raw text, for numbers JavaScript cannot hold).
 */
export interface Answer {
  claims: Record<string, unknown>
  userinfo: unknown
  userinfoText?: string
}

/** A FakeIssuer shaped like a provider, answering from the `answer` it returns (tests mutate it). */
export async function standUp(standIn: StandIn, shape: IdpShape, clientId = "rt16-client") {
  const answer: Answer = { claims: {}, userinfo: {} }
  const issuer = await FakeIssuer.create({
    standIn,
    issuer: shape.issuer,
    authorizationEndpoint: shape.authorize,
    tokenEndpoint: shape.token,
    userinfoEndpoint: shape.userinfo,
    jwksUri: shape.jwks,
    discovery: !!shape.jwks,
    clientId,
    clientSecret: "rt16-secret",
    // Client authentication is not under attack here.
    authMethod: () => true,
    idTokenClaims: () => answer.claims,
    // An OpenID provider answers with an ID Token whatever the scope (Apple's is "name email").
    tokenResponse: async (record, self) => ({
      access_token: `at-${crypto.randomUUID()}`,
      token_type: "Bearer",
      expires_in: 3600,
      ...(shape.jwks ? { id_token: await self.idToken(self.defaultIdTokenClaims(record)) } : {}),
    }),
    userinfo: () =>
      answer.userinfoText === undefined
        ? json(answer.userinfo)
        : new Response(answer.userinfoText, { headers: { "content-type": "application/json" } }),
  })
  return { issuer, answer }
}

/** The provider's options every test gives: the client and the stand-in's fetch. */
export function clientOptions(standIn: StandIn, linking: boolean) {
  return {
    clientId: "rt16-client",
    clientSecret: "rt16-secret",
    allowDangerousEmailAccountLinking: linking,
    [customFetch]: standIn.fetch,
  }
}

/** An app with `provider` on `adapter`, holding the victim's verified account unless told not to. */
export async function app(
  provider: Provider,
  options: { adapter?: "memory" | "sqlite" | (() => Promise<Backend>); victim?: boolean } = {},
) {
  const backend: Backend =
    typeof options.adapter === "function"
      ? await options.adapter()
      : options.adapter === "sqlite"
        ? await sqliteBackend()
        : memoryBackend()
  if (options.victim ?? true)
    await backend.adapter.createUser!({
      id: "victim",
      name: "Victim",
      email: VICTIM,
      emailVerified: new Date("2026-01-01T00:00:00Z"),
    } as AdapterUser)
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: backend.adapter,
    session: { strategy: "database" },
    debug: true,
    logger: { ...log.logger, warn() {} },
    providers: [provider],
  }
  return { config, backend, log }
}

/**
 * Signs in at `issuer` as `sub`; `form` sends the callback as the form_post POST a provider's
 * page makes (its parameters in the body), carrying only the cookies a browser sends on a
 * cross-site POST: those set `SameSite=None`.
 */
export async function signIn(
  config: AuthConfig,
  providerId: string,
  issuer: FakeIssuer,
  options: { sub?: string; form?: Record<string, string>; browser?: AppBrowser } = {},
) {
  const browser = options.browser ?? new AppBrowser(config, ORIGIN)
  const start = await browser.startSignIn(providerId)
  const callback = issuer.authorize(start.headers.get("location")!, options.sub ?? "user-1")
  if (!options.form) return { browser, done: await browser.request(callback.href) }
  const crossSite = crossSiteCookies(browser, start)
  const body = new URLSearchParams(callback.search)
  for (const [key, value] of Object.entries(options.form)) body.set(key, value)
  // Not browser.request: it would send the whole jar, SameSite=Lax cookies too.
  const done = await Auth(
    new Request(`${callback.origin}${callback.pathname}`, {
      method: "POST",
      headers: {
        cookie: crossSite,
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "cross-site",
      },
      body,
    }),
    config,
  )
  browser.store(done)
  return { browser, done }
}

/** The jar's cookies a browser sends cross-site: those whose latest Set-Cookie said SameSite=None. */
function crossSiteCookies(browser: AppBrowser, start: Response): string {
  const none = new Set(
    start.headers
      .getSetCookie()
      .filter((line) => /;\s*samesite=none/i.test(line))
      .map((line) => line.slice(0, line.indexOf("=")).trim()),
  )
  return [...browser.jar]
    .filter(([name]) => none.has(name))
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join("; ")
}

/** The outcome the invariant is about: no link to the victim, and the address is not vouched for. */
export async function expectNotTheVictims(backend: Backend, done: Response) {
  const accounts = await backend.accounts()
  const users = await backend.users()
  const victimLinked = accounts.some((account) => account.userId === "victim")
  const vouched = users.some(
    (user) => user.id !== "victim" && user.email === VICTIM && user.emailVerified !== null,
  )
  return { victimLinked, vouched, session: setsSession(done), accounts, users }
}
