/**
 * A sign-in waiting for its second factor when the OpenID provider ends the
 * session it came from (OpenID Connect Back-Channel Logout).
 *
 * The attacker signed in at the provider (a stolen provider session, say) and
 * stands at Tessera's code step; the provider's admin ends that session, and
 * its logout token reaches Tessera. The sessions it names ended, but the wait
 * did not: its record names the second-factor step, not the provider, so the
 * logout's filter missed it, and a code obtained within `twoFactor.maxAge`
 * still finished the sign-in. Now the wait's record names the provider it
 * waits for, and a logout of that provider's session (by `sid`, or every
 * session of the account by `sub`) ends it, while other waits stay.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { listSessions } from "@tessera/core/sessions"
import {
  completeOidcLogin,
  localOidcProvider,
  MemoryAdapter,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { Browser, ORIGIN, post, recordingLogger, setsSession, SECRET } from "../harness/index.js"
import { codeFor, enableTwoFactor, submitCode } from "../two-factor/helpers.js"

let idp: OidcProviderServer

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    backchannelLogoutUri: `${ORIGIN}/auth/backchannel-logout/local`,
  })
})
afterAll(() => idp?.stop())
afterEach(() => {
  vi.useRealTimers()
})

let config: AuthConfig
let adapter: ReturnType<typeof MemoryAdapter>
let revoked: string[]
let secret: string
let userId: string

/** Signs `browser` in at the provider as `ada`; returns Tessera's answer to the callback. */
async function signInAtProvider(browser: Browser): Promise<Response> {
  const start = await browser.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "ada" })
  return browser.request(back.url.pathname + back.url.search)
}

/** The records of sign-ins waiting for their second factor (not sessions). */
async function waits() {
  const sessions = new Set((await listSessions(config, userId)).map((s) => s.id))
  return (await adapter.listSessionRecords!(userId)).filter((r) => !sessions.has(r.id))
}

beforeEach(async () => {
  adapter = MemoryAdapter()
  revoked = []
  config = {
    secret: SECRET,
    trustHost: true,
    adapter,
    logger: recordingLogger().logger,
    providers: [localOidcProvider(idp, "local")],
    events: { sessionRevoked: ({ session }) => void revoked.push(session.id) },
  }
  const owner = new Browser(config)
  await signInAtProvider(owner)
  userId = [...adapter.store.users.values()][0]!.id
  ;({ secret } = await enableTwoFactor(config, owner.jar))
})

/** The attacker at the code step: a wait with the provider session's `sid`. */
async function attackerWaiting() {
  const attacker = new Browser(config)
  const answer = await signInAtProvider(attacker)
  expect(answer.headers.get("location")).toMatch(/\/auth\/two-factor$/)
  const [wait] = await waits()
  expect(wait?.providerSessionId).toEqual(expect.any(String))
  return { attacker, sid: wait!.providerSessionId! }
}

async function deliver(claims: { sub?: string; sid?: string }) {
  const path = "/auth/backchannel-logout/local"
  const response = await Auth(post(path, { logout_token: idp.logoutToken(claims) }), config)
  expect(response.status).toBe(200)
}

/** The attacker's next code: time moves on a step, as it would while they wait for it. */
async function finishWithNextCode(attacker: Browser) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 30_000 })
  return submitCode(config, attacker.jar, codeFor(secret))
}

test("a logout of the waiting sign-in's provider session (sid) ends the wait", async () => {
  const { attacker, sid } = await attackerWaiting()
  await deliver({ sid })
  expect(await waits()).toEqual([])

  const finished = await finishWithNextCode(attacker)
  expect(setsSession(finished)).toBe(false)
  expect(finished.headers.get("location")).toMatch(/\/auth\/signin\?error=/)
  // The owner's session came from another provider session: it stays, and no session was announced.
  expect(await listSessions(config, userId)).toHaveLength(1)
  expect(revoked).toEqual([])
})

test("a logout of every session of the provider account (sub alone) ends the wait too", async () => {
  const { attacker } = await attackerWaiting()
  await deliver({ sub: "ada" })

  expect(setsSession(await finishWithNextCode(attacker))).toBe(false)
  expect(await listSessions(config, userId)).toHaveLength(0)
})

test("a logout of another provider session leaves the wait, which still finishes", async () => {
  const { attacker } = await attackerWaiting()
  await deliver({ sid: "another-provider-session" })
  expect(await waits()).toHaveLength(1)

  expect(setsSession(await finishWithNextCode(attacker))).toBe(true)
  expect(await listSessions(config, userId)).toHaveLength(2)
})
