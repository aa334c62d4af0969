/**
 * Red team 9: an OpenID provider ending every session of an account
 * (Back-Channel Logout with `sub` alone: the user was disabled, or logged out
 * everywhere at the provider) while the app moves over from Auth.js.
 *
 * An Auth.js session cookie says whose session it is, not through which
 * provider it was made, so its adopted record has no provider, and the
 * logout's filter (this provider, this account) missed it: for as long as
 * the Auth.js cookies live (30 days), the disabled user kept every session
 * they had made under Auth.js, adopted or not yet.
 *
 * A logout of all of an account's sessions now also ends its user's sessions
 * of unknown origin (adopted from Auth.js) and the Auth.js cookies not yet
 * adopted.
 *
 * Red team 16 (carried over): a logout of one provider session (`sid`) left
 * them. An adopted Auth.js cookie carries no provider session id (Auth.js
 * never kept one), so Tessera cannot tell whether it was that session: the
 * one that ended may be the very one the user is still signed in with. The
 * safe side is taken: a `sid` logout ends, with the sessions it names, the
 * sessions of unknown origin of the user it names (by `sub`, or, with `sid`
 * alone, the user whose Tessera session carried that `sid`). The three `sid`
 * tests below failed before the fix (the adopted session stayed signed in).
 */
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { listSessions } from "@tessera/core/sessions"
import {
  completeOidcLogin,
  localOidcProvider,
  MemoryAdapter,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { Browser, Jar, ORIGIN, post, recordingLogger, SECRET } from "../harness/index.js"
import { AUTHJS_COOKIE, authjsToken, sessionOf } from "./redteam8-helpers.js"

const LOGOUT_PATH = "/auth/backchannel-logout/local"
let idp: OidcProviderServer

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    backchannelLogoutUri: `${ORIGIN}${LOGOUT_PATH}`,
  })
})
afterAll(() => idp?.stop())

/** A time `hours` ago, in seconds: a cookie last used then. */
const hoursAgo = (hours: number) => Math.floor(Date.now() / 1000) - hours * 3600

const ADA = { id: "user-ada", email: "ada@example.test", sub: "ada" }
const GRACE = { id: "user-grace", email: "grace@example.test", sub: "grace" }

let config: AuthConfig
let adapter: ReturnType<typeof MemoryAdapter>
let revoked: string[]

/** A user who signed in through the provider under Auth.js: a user row and a linked account. */
async function movedOver(user: typeof ADA) {
  await adapter.createUser!({ ...user, name: null, image: null, emailVerified: new Date() })
  await adapter.linkAccount!({
    userId: user.id,
    type: "oidc",
    provider: "local",
    providerAccountId: user.sub,
  })
}

/** An Auth.js session cookie of `user`, last used `hours` ago. */
const authjsCookieOf = (user: typeof ADA, hours = 1) =>
  authjsToken(SECRET, { sub: user.id, email: user.email }, hoursAgo(hours))

async function deliver(claims: { sub?: string; sid?: string }) {
  const response = await Auth(post(LOGOUT_PATH, { logout_token: idp.logoutToken(claims) }), config)
  expect(response.status).toBe(200)
}

beforeEach(async () => {
  adapter = MemoryAdapter()
  revoked = []
  config = {
    secret: SECRET,
    trustHost: true,
    adapter,
    // revalidateAge 0: every check asks the record (a revoked session ends on its next request).
    session: { strategy: "jwt", revalidateAge: 0 },
    logger: recordingLogger().logger,
    providers: [localOidcProvider(idp, "local")],
    events: { sessionRevoked: ({ session }) => void revoked.push(session.id) },
  }
  await movedOver(ADA)
  await movedOver(GRACE)
})

test("a logout of all of the account's sessions (sub) ends its adopted Auth.js sessions", async () => {
  const laptop = new Jar({ [AUTHJS_COOKIE]: await authjsCookieOf(ADA) })
  expect((await sessionOf(config, laptop))?.user?.email).toBe(ADA.email)
  const [adopted] = await listSessions(config, ADA.id)
  expect(adopted?.provider).toBeNull()

  await deliver({ sub: ADA.sub })

  expect(await sessionOf(config, laptop)).toBeNull()
  expect(await listSessions(config, ADA.id)).toEqual([])
  expect(revoked).toEqual([adopted!.id])
})

test("... and the Auth.js cookies not adopted yet (another device's)", async () => {
  const phone = await authjsCookieOf(ADA, 2)
  await deliver({ sub: ADA.sub })

  expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: phone }))).toBeNull()
  expect(await listSessions(config, ADA.id)).toEqual([])
})

test("another user's Auth.js sessions, adopted or not, stay", async () => {
  const hers = new Jar({ [AUTHJS_COOKIE]: await authjsCookieOf(GRACE) })
  expect((await sessionOf(config, hers))?.user?.email).toBe(GRACE.email)
  const notYet = await authjsCookieOf(GRACE, 2)

  await deliver({ sub: ADA.sub })

  expect((await sessionOf(config, hers))?.user?.email).toBe(GRACE.email)
  expect((await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: notYet })))?.user?.email).toBe(
    GRACE.email,
  )
  expect(revoked).toEqual([])
})

test("a sub the app has no account for ends nothing", async () => {
  const laptop = new Jar({ [AUTHJS_COOKIE]: await authjsCookieOf(ADA) })
  expect((await sessionOf(config, laptop))?.user?.email).toBe(ADA.email)

  await deliver({ sub: "someone-else" })

  expect((await sessionOf(config, laptop))?.user?.email).toBe(ADA.email)
  expect(revoked).toEqual([])
})

test("a logout of one provider session (sid, with sub) ends the user's adopted sessions too", async () => {
  const laptop = new Jar({ [AUTHJS_COOKIE]: await authjsCookieOf(ADA) })
  expect((await sessionOf(config, laptop))?.user?.email).toBe(ADA.email)
  const [adopted] = await listSessions(config, ADA.id)
  const phone = await authjsCookieOf(ADA, 2)
  const hers = new Jar({ [AUTHJS_COOKIE]: await authjsCookieOf(GRACE) })
  expect((await sessionOf(config, hers))?.user?.email).toBe(GRACE.email)

  // The adopted cookie may be the provider session that ended: Tessera cannot tell.
  await deliver({ sub: ADA.sub, sid: "one-provider-session" })

  expect(await sessionOf(config, laptop)).toBeNull()
  expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: phone }))).toBeNull()
  expect(revoked).toEqual([adopted!.id])
  // Another user's stay.
  expect((await sessionOf(config, hers))?.user?.email).toBe(GRACE.email)
})

test("sid alone: the user whose session it names loses their adopted sessions too", async () => {
  // Ada signs in again through the provider on a new device: that session's record has the sid.
  const desktop = new Browser(config)
  const start = await desktop.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId: ADA.sub })
  expect((await desktop.request(back.url.pathname + back.url.search)).status).toBe(302)
  const signedIn = (await adapter.listSessionRecords!(ADA.id)).find((r) => r.provider === "local")
  expect(signedIn?.providerSessionId).toEqual(expect.any(String))
  const laptop = new Jar({ [AUTHJS_COOKIE]: await authjsCookieOf(ADA) })
  expect((await sessionOf(config, laptop))?.user?.email).toBe(ADA.email)

  await deliver({ sid: signedIn!.providerSessionId! })

  expect(await sessionOf(config, desktop.jar)).toBeNull()
  expect(await sessionOf(config, laptop)).toBeNull()
  expect(await listSessions(config, ADA.id)).toEqual([])
})

test("sid alone naming no session here ends nothing (no user to tie it to)", async () => {
  const laptop = new Jar({ [AUTHJS_COOKIE]: await authjsCookieOf(ADA) })
  expect((await sessionOf(config, laptop))?.user?.email).toBe(ADA.email)

  await deliver({ sid: "unknown-provider-session" })

  expect((await sessionOf(config, laptop))?.user?.email).toBe(ADA.email)
  expect(revoked).toEqual([])
})
