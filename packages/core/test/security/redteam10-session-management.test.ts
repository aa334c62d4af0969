/**
 * Red team 10: the session and token management surface as an attacker reaches
 * it through `Auth()`: the sessions list and revoke routes, sign-out scopes,
 * RP-initiated logout and back-channel logout, against a real oidc-provider.
 *
 * Found (each test failed before its fix):
 * - A back-channel logout token signed with HS256 under the client secret was
 *   accepted although the client never registered a MAC algorithm for its ID
 *   Tokens: the accepted algorithms came from the provider's discovery list,
 *   which for Keycloak and Auth0 names HS256. Whoever learns the client secret
 *   (it travels with every token request) could forge logout tokens and end
 *   any user's sessions. OpenID Connect Core §3.1.3.7: RS256 or the registered
 *   algorithm; HS* now only when the app registers it.
 * - JWT sessions: what acts for the signed-in user (the sessions routes,
 *   sign-out scopes, adding a passkey, an account or a second factor) took the
 *   user from `sub`, which an app's `jwt` callback that spreads `update()` data
 *   over the token lets the browser rename: Mallory listed and could end Ada's
 *   sessions, and set up a second factor on Ada's account. The record's user
 *   decides now.
 * - RP-initiated logout put the ID Token of whichever account the JWT's `idp`
 *   claim named (renamed the same way) into the redirect: now only the
 *   signed-in user's own, and `idp` is Tessera's claim, kept from the token.
 * - A `jwt` callback that rebuilds the token dropped `idp`, and sign-out with
 *   `signOut: "provider"` silently stayed local, leaving the provider session
 *   for the next person at a shared computer.
 *
 * The rest are probes that found nothing, kept as regression tests.
 */
import { createHash } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { listSessions, revokeUserSessions } from "@tessera/core/sessions"
import type { LoggerInstance } from "@tessera/core/types"
import {
  completeOidcLogin,
  localOidcProvider,
  MemoryAdapter,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { decodeJwt, SignJWT } from "jose"
import { Browser, Jar, ORIGIN, post, SECRET } from "../harness/index.js"

const EVENT = "http://schemas.openid.net/event/backchannel-logout"
let idp: OidcProviderServer
/** A second OpenID provider: the same client id, the same account ids, another issuer. */
let other: OidcProviderServer
/**
 * The provider's discovery document as Keycloak and Auth0 publish theirs: HS256
 * among `id_token_signing_alg_values_supported` (for clients that register it).
 * The local oidc-provider lists only the algorithms of its keys.
 */
let keycloakLike: Server
let keycloakLikeWellKnown: string

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    backchannelLogoutUri: `${ORIGIN}/auth/backchannel-logout/local`,
  })
  other = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/other`],
    backchannelLogoutUri: `${ORIGIN}/auth/backchannel-logout/other`,
    // Account "ada" there is someone else: Bob.
    accounts: { ada: { name: "Bob", email: "bob@example.test" } },
  })
  keycloakLike = createServer((_req, res) => {
    void fetch(`${idp.issuer}/.well-known/openid-configuration`)
      .then((r) => r.json() as Promise<Record<string, unknown>>)
      .then((metadata) => {
        metadata.id_token_signing_alg_values_supported = ["HS256", "RS256", "PS256"]
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(metadata))
      })
  })
  await new Promise<void>((resolve) => keycloakLike.listen(0, "127.0.0.1", resolve))
  const { port } = keycloakLike.address() as AddressInfo
  keycloakLikeWellKnown = `http://127.0.0.1:${port}/.well-known/openid-configuration`
})
afterAll(async () => {
  keycloakLike?.closeAllConnections()
  keycloakLike?.close()
  await Promise.all([idp?.stop(), other?.stop()])
})
afterEach(() => vi.useRealTimers())

/** Everything logged, at every level, with metadata and causes, as one string per line. */
function fullLogger() {
  const lines: string[] = []
  const dump = (value: unknown): string => {
    const seen = new WeakSet()
    return JSON.stringify(value, (_key, v: unknown) => {
      if (v instanceof Error) {
        return { name: v.name, message: v.message, stack: v.stack, cause: v.cause, ...v }
      }
      if (typeof v === "object" && v !== null) {
        if (seen.has(v)) return "[circular]"
        seen.add(v)
      }
      return v
    })
  }
  const logger: LoggerInstance = {
    error: (error) => void lines.push(`error ${dump(error)}`),
    warn: (code) => void lines.push(`warn ${code}`),
    debug: (message, metadata) => void lines.push(`debug ${message} ${dump(metadata)}`),
  }
  return { logger, lines }
}

let config: AuthConfig
let adapter: ReturnType<typeof MemoryAdapter>
let log: ReturnType<typeof fullLogger>

function makeConfig(strategy: "jwt" | "database", provider: Record<string, unknown> = {}) {
  log = fullLogger()
  adapter = MemoryAdapter()
  config = {
    secret: SECRET,
    trustHost: true,
    adapter,
    debug: true,
    logger: log.logger,
    session: { strategy },
    providers: [{ ...localOidcProvider(idp, "local"), ...provider }],
  }
  return config
}

/** Signs `accountId` in at the provider through a fresh browser. */
async function signIn(accountId: string) {
  const browser = new Browser(config)
  const start = await browser.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
  const done = await browser.request(back.url.pathname + back.url.search)
  expect(done.status).toBe(302)
  expect(await browser.session()).not.toBeNull()
  const user = await adapter.getUserByAccount!({ provider: "local", providerAccountId: accountId })
  const account = [...adapter.store.accounts.values()].find(
    (a) => a.providerAccountId === accountId,
  )!
  return { browser, userId: user!.id, idToken: account.id_token! }
}

const now = () => Math.floor(Date.now() / 1000)

async function deliver(token: string, cfg: AuthConfig = config) {
  const response = await Auth(post("/auth/backchannel-logout/local", { logout_token: token }), cfg)
  return response.status
}

describe("back-channel logout: the algorithm is the client's, not any the provider lists", () => {
  let ada: Awaited<ReturnType<typeof signIn>>
  beforeEach(async () => {
    makeConfig("jwt", { wellKnown: keycloakLikeWellKnown })
    ada = await signIn("ada")
  })

  /** A well-formed logout token for Ada's provider session, signed HS256 with `key`. */
  function hs256(key: string) {
    return new SignJWT({
      jti: crypto.randomUUID(),
      sub: "ada",
      sid: decodeJwt(ada.idToken).sid as string,
      events: { [EVENT]: {} },
    })
      .setProtectedHeader({ alg: "HS256", typ: "logout+jwt" })
      .setIssuer(idp.issuer)
      .setAudience(idp.clientId)
      .setIssuedAt(now())
      .setExpirationTime(now() + 120)
      .sign(new TextEncoder().encode(key))
  }

  test("HS256 under the client secret, the client registered no MAC algorithm: refused, the session stays", async () => {
    expect(await deliver(await hs256(idp.clientSecret))).toBe(400)
    expect(await listSessions(config, ada.userId)).toHaveLength(1)
    expect(await ada.browser.session()).not.toBeNull()
  })

  test("an app that registered HS256 for its ID Tokens gets HS256 logout tokens accepted", async () => {
    // Same adapter and users, one more setting: the client's registered algorithm.
    const hsConfig: AuthConfig = {
      ...config,
      providers: [
        {
          ...localOidcProvider(idp, "local"),
          wellKnown: keycloakLikeWellKnown,
          client: { id_token_signed_response_alg: "HS256" },
        },
      ],
    }
    expect(await deliver(await hs256("not the client secret"), hsConfig)).toBe(400)
    expect(await listSessions(config, ada.userId)).toHaveLength(1)
    // An RS256 token is then not the client's algorithm either.
    expect(await deliver(idp.logoutToken({ sub: "ada" }), hsConfig)).toBe(400)
    expect(await listSessions(config, ada.userId)).toHaveLength(1)
    expect(await deliver(await hs256(idp.clientSecret), hsConfig)).toBe(200)
    expect(await listSessions(config, ada.userId)).toEqual([])
  })

  test("the provider's own RS256 logout token still works", async () => {
    expect(await deliver(idp.logoutToken({ sub: "ada" }))).toBe(200)
    expect(await listSessions(config, ada.userId)).toEqual([])
  })
})

/** The browser's session cookie value. */
function sessionCookie(browser: Browser): string {
  return browser.jar.get("tessera.session-token")!
}

/** A copy of `browser` (its cookies copied, as a thief would). */
function copyOf(browser: Browser): Browser {
  return new Browser(browser.config, browser.origin, new Jar(Object.fromEntries(browser.jar)))
}

async function csrfPost(browser: Browser, path: string, body: Record<string, string>) {
  const csrfToken = await browser.csrfToken()
  return browser.request(path, { body: { ...body, csrfToken }, headers: { origin: ORIGIN } })
}

describe("the sessions list and revoke routes", () => {
  test("database sessions: the list holds neither the cookie's token nor its hash, and neither revokes", async () => {
    makeConfig("database")
    const ada = await signIn("ada")
    const token = sessionCookie(ada.browser)
    const hash = createHash("sha256").update(token).digest("hex")
    const listed = await (await ada.browser.request("/auth/sessions")).text()
    expect(JSON.parse(listed)).toHaveLength(1)
    for (const secret of [token, hash, hash.toUpperCase()]) expect(listed).not.toContain(secret)
    for (const id of [token, hash]) {
      const response = await csrfPost(ada.browser, "/auth/sessions/revoke", { id })
      expect(response.status).toBe(404)
    }
    expect(await ada.browser.session()).not.toBeNull()
    expect(await listSessions(config, ada.userId)).toHaveLength(1)
  })

  test("JWT: a revoked cookie its cache still trusts (within revalidateAge) manages nothing", async () => {
    makeConfig("jwt")
    const ada = await signIn("ada")
    const laptop = await signIn("ada")
    const thief = copyOf(laptop.browser)
    vi.useFakeTimers({ toFake: ["Date"] })
    // Ada ends every session but this one from her phone (the first browser).
    expect((await csrfPost(ada.browser, "/auth/signout", { scope: "others" })).status).toBe(302)
    const left = await listSessions(config, ada.userId)
    expect(left).toHaveLength(1)
    // Documented: a plain session check trusts the cookie's cache for up to revalidateAge...
    expect(await thief.session()).not.toBeNull()
    // ...but nothing that manages sessions does: each asks the record.
    expect((await thief.request("/auth/sessions")).status).toBe(401)
    const revoke = await csrfPost(thief, "/auth/sessions/revoke", { id: left[0]!.id })
    expect(revoke.status).toBe(401)
    await csrfPost(thief, "/auth/signout", { scope: "others" })
    expect(await listSessions(config, ada.userId)).toEqual(left)
    // An update (POST /auth/session) asks the record too: it ends the copy at once.
    const update = await csrfPost(copyOf(laptop.browser), "/auth/session", { data: "{}" })
    expect(await update.json()).toBeNull()
    expect(await ada.browser.session()).not.toBeNull()
  })

  test("after sign-out everywhere, a new sign-in lists one session (no mark, no leftovers)", async () => {
    makeConfig("jwt")
    const ada = await signIn("ada")
    await signIn("ada")
    expect((await csrfPost(ada.browser, "/auth/signout", { scope: "all" })).status).toBe(302)
    expect(await listSessions(config, ada.userId)).toEqual([])
    const again = await signIn("ada")
    const listed = (await (await again.browser.request("/auth/sessions")).json()) as unknown[]
    expect(listed).toEqual([expect.objectContaining({ current: true })])
  })
})

describe("RP-initiated logout", () => {
  beforeEach(() => {
    makeConfig("jwt", { signOut: "provider" })
    config.callbacks = {
      redirect: ({ url, baseUrl }) => {
        redirects.push(url)
        return url.startsWith(baseUrl) || url.startsWith("/") ? url : baseUrl
      },
    }
  })
  let redirects: string[] = []
  afterEach(() => (redirects = []))

  test("the ID Token goes to the provider's end_session_endpoint only: no log line, no redirect callback, no foreign return address", async () => {
    const ada = await signIn("ada")
    const response = await csrfPost(ada.browser, "/auth/signout", {
      callbackUrl: "https://evil.example/collect",
    })
    const location = new URL(response.headers.get("location")!)
    expect(location.origin).toBe(idp.issuer)
    expect(location.searchParams.get("id_token_hint")).toBe(ada.idToken)
    expect(location.searchParams.get("post_logout_redirect_uri")).toBe(`${ORIGIN}/`)
    const signature = ada.idToken.split(".")[2]!
    expect(log.lines.filter((line) => line.includes(signature))).toEqual([])
    expect(redirects.filter((url) => url.includes(signature))).toEqual([])
  })

  test("a stolen JWT cookie whose session was revoked signs out locally: no ID Token handed out", async () => {
    const ada = await signIn("ada")
    const thief = copyOf(ada.browser)
    vi.useFakeTimers({ toFake: ["Date"] })
    await revokeUserSessions(config, ada.userId)
    // Within revalidateAge the copy still reads as a session, but sign-out asks the record.
    expect(await thief.session()).not.toBeNull()
    const response = await csrfPost(thief, "/auth/signout", {})
    const location = response.headers.get("location")!
    expect(location).not.toContain("id_token_hint")
    expect(new URL(location).origin).toBe(ORIGIN)
  })
})

describe("back-channel logout across providers", () => {
  test("provider A's token naming a sub or sid that provider B also has ends only A's sessions", async () => {
    makeConfig("jwt")
    config.providers = [localOidcProvider(idp, "local"), localOidcProvider(other, "other")]
    const ada = await signIn("ada")
    // Bob is "ada" at the other provider (account ids are per provider).
    const bobBrowser = new Browser(config)
    const start = await bobBrowser.startSignIn("other")
    const back = await completeOidcLogin(start.headers.get("location")!, {
      accountId: "ada",
    })
    await bobBrowser.request(back.url.pathname + back.url.search)
    const bob = await adapter.getUserByAccount!({ provider: "other", providerAccountId: "ada" })
    expect(bob!.id).not.toBe(ada.userId)
    const bobIdToken = [...adapter.store.accounts.values()].find(
      (a) => a.provider === "other",
    )!.id_token!
    const bobSid = decodeJwt(bobIdToken).sid as string

    // Signed by A, for the same client id, naming B's sid; then posted to B's endpoint.
    expect(await deliver(idp.logoutToken({ sid: bobSid }))).toBe(200)
    const toOther = await Auth(
      post("/auth/backchannel-logout/other", { logout_token: idp.logoutToken({ sub: "ada" }) }),
      config,
    )
    expect(toOther.status).toBe(400)
    expect(await listSessions(config, bob!.id)).toHaveLength(1)
    expect(await listSessions(config, ada.userId)).toHaveLength(1)
    // A's own token for its own sub ends Ada's session, not Bob's.
    expect(await deliver(idp.logoutToken({ sub: "ada" }))).toBe(200)
    expect(await listSessions(config, ada.userId)).toEqual([])
    expect(await listSessions(config, bob!.id)).toHaveLength(1)
  })
})

/** POST /auth/session with `data`, as the client's `update(data)` sends it. */
async function updateSession(browser: Browser, data: Record<string, unknown>) {
  return browser.fetch("/auth/session", {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ csrfToken: await browser.csrfToken(), data }),
  })
}

/** The jwt callback of an app that spreads `update()` data over the token, unchecked (seen in the wild). */
const mergingJwt: NonNullable<AuthConfig["callbacks"]>["jwt"] = ({ token, trigger, session }) =>
  trigger === "update" && session && typeof session === "object"
    ? { ...token, ...(session as object) }
    : token

describe("a JWT whose sub no longer names its record's user", () => {
  test("an app's jwt callback that merges update data (a common pattern) lets a user rename sub: Tessera's session management still acts for the record's user only", async () => {
    makeConfig("jwt")
    config.callbacks = { jwt: mergingJwt }
    const ada = await signIn("ada")
    const mallory = await signIn("mallory")
    const update = await updateSession(mallory.browser, { sub: ada.userId })
    expect(update.status).toBe(200)
    expect(await update.json()).not.toBeNull()
    const [adaRecord] = await listSessions(config, ada.userId)
    // Mallory's cookie now says sub = Ada. Her record still says Mallory.
    const listed = await mallory.browser.request("/auth/sessions")
    expect(listed.status).toBe(401)
    const revoke = await csrfPost(mallory.browser, "/auth/sessions/revoke", { id: adaRecord!.id })
    expect(revoke.status).toBe(401)
    await csrfPost(mallory.browser, "/auth/signout", { scope: "others" })
    expect(await listSessions(config, ada.userId)).toHaveLength(1)
    expect(await ada.browser.session()).not.toBeNull()
  })
})

test("a renamed sub cannot set up a second factor on the other user's account", async () => {
  makeConfig("jwt")
  config.twoFactor = {}
  config.callbacks = { jwt: mergingJwt }
  const ada = await signIn("ada")
  const mallory = await signIn("mallory")
  expect((await updateSession(mallory.browser, { sub: ada.userId })).status).toBe(200)
  // Mallory signed in a moment ago: a recent sign-in, as setting up a factor needs.
  const setup = await csrfPost(mallory.browser, "/auth/two-factor/setup", {})
  expect([401, 403]).toContain(setup.status)
  expect(await adapter.getTwoFactor!(ada.userId)).toBeNull()
})

test("RP-initiated logout: a token renamed to another user's provider account gets their ID Token nowhere", async () => {
  makeConfig("jwt", { signOut: "provider" })
  config.callbacks = { jwt: mergingJwt }
  const ada = await signIn("ada")
  const mallory = await signIn("mallory")
  // Mallory points her token's provider account at Ada's (`idp` is where sign-out looks).
  const renamed = await updateSession(mallory.browser, {
    idp: { provider: "local", account: "ada" },
  })
  expect(renamed.status).toBe(200)
  const response = await csrfPost(mallory.browser, "/auth/signout", {})
  const location = new URL(response.headers.get("location")!)
  expect(location.origin).toBe(idp.issuer)
  // Her own sign-out at the provider: her own ID Token (Tessera keeps `idp`), or none
  // (the account is not hers), never Ada's.
  const hint = location.searchParams.get("id_token_hint")
  expect(hint).not.toBe(ada.idToken)
  expect([mallory.idToken, null]).toContain(hint)
})

test("RP-initiated logout turned on after sign-in (no idp claim yet): a renamed idp gets no one else's ID Token", async () => {
  makeConfig("jwt")
  config.callbacks = { jwt: mergingJwt }
  const ada = await signIn("ada")
  const mallory = await signIn("mallory")
  // The app turns provider sign-out on; Mallory's session predates it.
  const later: AuthConfig = {
    ...config,
    providers: [{ ...localOidcProvider(idp, "local"), signOut: "provider" }],
  }
  const browser = new Browser(later, ORIGIN, mallory.browser.jar)
  expect(
    (await updateSession(browser, { idp: { provider: "local", account: "ada" } })).status,
  ).toBe(200)
  const response = await csrfPost(browser, "/auth/signout", {})
  const location = new URL(response.headers.get("location")!)
  expect(location.searchParams.get("id_token_hint")).toBeNull()
  expect(location.href).not.toContain(ada.idToken)
})

test("no GET ends a session: sessions/revoke and signout with scope=all by GET change nothing", async () => {
  makeConfig("database")
  const ada = await signIn("ada")
  const [record] = await listSessions(config, ada.userId)
  const revoke = await ada.browser.request(`/auth/sessions/revoke?id=${record!.id}`)
  expect(revoke.status).toBe(405)
  const page = await ada.browser.request("/auth/signout?scope=all")
  expect(page.status).toBe(200)
  expect(await listSessions(config, ada.userId)).toHaveLength(1)
  expect(await ada.browser.session()).not.toBeNull()
})

test("RP-initiated logout still happens when the app's jwt callback rebuilds the token (drops claims it does not know)", async () => {
  makeConfig("jwt", { signOut: "provider" })
  // A jwt callback that returns a token of its own making, as some Auth.js apps do.
  config.callbacks = {
    jwt: ({ token }) => ({
      sub: token.sub,
      name: token.name,
      email: token.email,
      picture: token.picture,
      role: "member",
    }),
  }
  const ada = await signIn("ada")
  // A session check that re-issues the cookie through the callback.
  await updateSession(ada.browser, {})
  expect(await ada.browser.session()).not.toBeNull()
  const response = await csrfPost(ada.browser, "/auth/signout", {})
  const location = new URL(response.headers.get("location")!)
  // The user signed out here; on a shared computer the provider's session must end too.
  expect(location.origin).toBe(idp.issuer)
  expect(location.searchParams.get("id_token_hint")).toBe(ada.idToken)
})
