/**
 * OpenID Connect logout against the real oidc-provider, with the app served
 * over HTTP so the provider can call it: RP-initiated logout (`signOut:
 * "provider"`: sign-out ends the local session, then sends the browser to the
 * provider's end_session_endpoint with id_token_hint, client_id,
 * post_logout_redirect_uri and state), and back-channel logout (the provider
 * POSTs a logout token naming the session's `sid` when it ends its session;
 * the matching sessions end), for JWT and database sessions.
 */
import { decodeJwt } from "jose"
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { listSessions } from "@tessera/core/sessions"
import {
  completeOidcLogin,
  completeOidcLogout,
  localOidcProvider,
  MemoryAdapter,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { Browser, recordingLogger, SECRET } from "../../harness/index.js"
import { serveAuth, type AuthServer } from "../../harness/http-server.js"

let app: AuthServer
let idp: OidcProviderServer
let config: AuthConfig
const backchannel: { ok: number; failed: unknown[] } = { ok: 0, failed: [] }

beforeAll(async () => {
  app = await serveAuth(() => config)
  idp = await startOidcProvider({
    redirectUris: [`${app.origin}/auth/callback/local`],
    backchannelLogoutUri: `${app.origin}/auth/backchannel-logout/local`,
    postLogoutRedirectUris: [`${app.origin}/signed-out`, `${app.origin}/`],
  })
  const events = idp.provider as { on(event: string, listener: (...a: any[]) => void): void }
  events.on("backchannel.success", () => void backchannel.ok++)
  events.on("backchannel.error", (_ctx: unknown, error: unknown) => backchannel.failed.push(error))
})
afterAll(async () => {
  await Promise.all([app?.stop(), idp?.stop()])
})
afterEach(() => {
  vi.useRealTimers()
  backchannel.ok = 0
  backchannel.failed = []
})

function makeApp(
  strategy: "jwt" | "database",
  options: { adapter?: boolean; provider?: Record<string, unknown> } = {},
) {
  const adapter = options.adapter === false ? undefined : MemoryAdapter()
  const revoked: string[] = []
  config = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    logger: recordingLogger().logger,
    events: { sessionRevoked: ({ reason }) => void revoked.push(reason) },
    providers: [
      {
        ...localOidcProvider(idp, "local"),
        signOut: "provider",
        postLogoutRedirectUri: "/signed-out",
        ...options.provider,
      },
    ],
  }
  return { config, adapter, revoked }
}

/** Signs in at the provider as `accountId` in a browser whose provider cookies live in `idpJar`. */
async function signIn(idpJar = new Map<string, string>(), accountId = "ada") {
  const browser = new Browser(config, app.origin)
  const start = await browser.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId, jar: idpJar })
  const done = await browser.request(back.url.pathname + back.url.search)
  expect(done.status).toBe(302)
  expect((await browser.session())?.user?.name).toBe("Ada")
  return { browser, idpJar }
}

async function signOut(browser: Browser, body: Record<string, string> = {}) {
  const csrfToken = await browser.csrfToken()
  return browser.request("/auth/signout", {
    body: { csrfToken, ...body },
    headers: { origin: app.origin },
  })
}

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  test("RP-initiated logout: local session ended, browser sent to end_session_endpoint with the hint, client_id, post-logout URI and state", async () => {
    const { adapter } = makeApp(strategy)
    const { browser, idpJar } = await signIn()
    const account = [...adapter!.store.accounts.values()][0]!
    const response = await signOut(browser)
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(`${location.origin}${location.pathname}`).toBe(`${idp.issuer}/session/end`)
    const q = location.searchParams
    expect(q.get("id_token_hint")).toBe(account.id_token)
    expect(q.get("client_id")).toBe(idp.clientId)
    expect(q.get("post_logout_redirect_uri")).toBe(`${app.origin}/signed-out`)
    expect(q.get("state")).toMatch(/^[0-9a-f]{32}$/)
    // The local session is over before the browser even reaches the provider.
    expect(await browser.session()).toBeNull()
    expect(await listSessions(config, account.userId)).toEqual([])

    // The provider ends its session and sends the browser back with the state.
    const back = await completeOidcLogout(location, { jar: idpJar })
    expect(`${back.origin}${back.pathname}`).toBe(`${app.origin}/signed-out`)
    expect(back.searchParams.get("state")).toBe(q.get("state"))
    // Its back-channel logout reached the app too (nothing left to end here).
    expect(backchannel).toEqual({ ok: 1, failed: [] })
  })

  test("back-channel logout: the provider ends its session, the app's session with that sid ends", async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true })
    const { adapter, revoked } = makeApp(strategy, { provider: { signOut: "local" } })
    const { browser, idpJar } = await signIn()
    // A second app session from the same provider session (same sid), and one from another.
    const { browser: sameIdpSession } = await signIn(idpJar)
    const { browser: elsewhere } = await signIn(new Map())
    const userId = [...adapter!.store.users.values()][0]!.id
    const records = await listSessions(config, userId)
    expect(records).toHaveLength(3)

    // The user signs out at the provider itself (another app's logout, the provider's page).
    await completeOidcLogout(`${idp.issuer}/session/end`, { jar: idpJar })
    expect(backchannel.failed.map((e: any) => String(e?.cause ?? e))).toEqual([])
    expect(backchannel.ok).toBe(1)
    expect(app.paths).toContain("/auth/backchannel-logout/local")
    expect(revoked).toEqual(["backchannel-logout", "backchannel-logout"])

    vi.setSystemTime(Date.now() + 60_000)
    expect(await browser.session()).toBeNull()
    expect(await sameIdpSession.session()).toBeNull()
    expect((await elsewhere.session())?.user?.name).toBe("Ada")
    expect(await listSessions(config, userId)).toHaveLength(1)
  })
})

test("RP-initiated logout with JWT sessions and no adapter: the session's ID Token as the hint, client_id, the URI and state", async () => {
  makeApp("jwt", { adapter: false })
  const { browser, idpJar } = await signIn()
  const response = await signOut(browser, { callbackUrl: "/" })
  const location = new URL(response.headers.get("location")!)
  const hint = location.searchParams.get("id_token_hint")
  // The ID Token the provider issued at this sign-in: its issuer, this client, this user.
  const claims = decodeJwt(hint ?? "")
  expect(claims).toMatchObject({ iss: idp.issuer, aud: idp.clientId, sub: "ada" })
  expect(location.searchParams.get("client_id")).toBe(idp.clientId)
  expect(location.searchParams.get("post_logout_redirect_uri")).toBe(`${app.origin}/signed-out`)
  expect(await browser.session()).toBeNull()
  const back = await completeOidcLogout(location, { jar: idpJar })
  expect(back.pathname).toBe("/signed-out")
})

test("without postLogoutRedirectUri the sign-out's callback URL is the post-logout URI; a foreign one is not", async () => {
  makeApp("database", { provider: { postLogoutRedirectUri: undefined } })
  const { browser } = await signIn()
  const response = await signOut(browser, { callbackUrl: "https://evil.example/" })
  const location = new URL(response.headers.get("location")!)
  expect(location.searchParams.get("post_logout_redirect_uri")).toBe(`${app.origin}/`)
})

test("signOut: local (the default) keeps the provider's session", async () => {
  makeApp("database", { provider: { signOut: undefined } })
  const { browser } = await signIn()
  const response = await signOut(browser, { callbackUrl: "/bye" })
  expect(response.headers.get("location")).toBe(`${app.origin}/bye`)
})
