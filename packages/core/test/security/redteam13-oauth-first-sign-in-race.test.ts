/**
 * Two different OpenID providers (two oidc-provider issuers) finish a first sign-in for the
 * same e-mail address at the same moment, on SQLite (`@tessera/sql` on a file). Both sign-ins
 * look the address up, find no one, and try to create a user: the unique e-mail column lets one
 * through. The other must end as if it had come second, never as `error=Configuration`:
 * `OAuthAccountNotLinked` by default; linked to the one user when the provider allows dangerous
 * linking and vouches for the address; refused, or releasing the claim, when one of the two
 * providers does not vouch for it. Also one provider account in two browsers at once.
 *
 * The interleaving is made deterministic by holding the real adapter's `createUserAndAccount`
 * until both sign-ins reach it (so both have looked the address up before either writes), then
 * letting the first listed write first; the writes themselves are the real SQLite adapter's.
 * The first two tests failed with `error=Configuration` when core's `decideAgain` retry
 * (flows/sign-in/users.ts) was taken out; with it, all held.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import type { Adapter } from "@tessera/core/adapters"
import {
  completeOidcLogin,
  localOidcProvider,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { Browser, ORIGIN, SECRET, recordingLogger } from "../harness/index.js"
import { sqliteBackend, type Backend } from "../harness/backends.js"

let idps: OidcProviderServer[] = []
const accounts = {
  ada: { email: "ada@example.com", email_verified: true },
  // Someone who typed Ada's address at the provider, which never checked it.
  mallory: { email: "ada@example.com", email_verified: false },
}
beforeAll(async () => {
  idps = await Promise.all(
    ["idp-a", "idp-b"].map((id) =>
      startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/${id}`], accounts }),
    ),
  )
})
afterAll(() => Promise.all(idps.map((idp) => idp.stop())))

let backend: Backend | undefined
afterEach(() => backend?.close())

/**
 * The real adapter, whose `createUserAndAccount` waits until `count` sign-ins have reached it
 * (both have looked the address up); then the write of provider `first` goes, and the others
 * once it has ended.
 */
function holdingFirstWrites(adapter: Adapter, first: string, count = 2): Adapter {
  let arrived = 0
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  let firstEnded!: () => void
  const afterFirst = new Promise<void>((resolve) => (firstEnded = resolve))
  let firstTaken = false
  return {
    ...adapter,
    createUserAndAccount(user, account) {
      if (++arrived === count) release()
      const isFirst = !firstTaken && account.provider === first
      if (isFirst) firstTaken = true
      const write = (isFirst ? gate : gate.then(() => afterFirst)).then(() =>
        adapter.createUserAndAccount!(user, account),
      )
      if (isFirst) void write.then(firstEnded, firstEnded)
      return write
    },
  }
}

/** First sign-ins at once, one per `[provider, account at its IdP]`, each in its own browser. */
async function race(
  dangerous: boolean,
  signIns: [string, string][] = [
    ["idp-a", "ada"],
    ["idp-b", "ada"],
  ],
) {
  backend = await sqliteBackend()
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    // The first sign-in listed writes first.
    adapter: holdingFirstWrites(backend.adapter, signIns[0]![0]),
    session: { strategy: "database" },
    providers: ["idp-a", "idp-b"].map((id, i) => ({
      ...localOidcProvider(idps[i]!, id),
      allowDangerousEmailAccountLinking: dangerous,
    })),
  }
  const browsers = signIns.map(() => new Browser(config))
  // Both up to the callback first: the provider's login is not part of the race.
  const callbacks = await Promise.all(
    signIns.map(async ([id, accountId], i) => {
      const start = await browsers[i]!.startSignIn(id)
      const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
      return back.url.pathname + back.url.search
    }),
  )
  const responses = await Promise.all(callbacks.map((path, i) => browsers[i]!.request(path)))
  const errors = responses.map((r) => new URL(r.headers.get("location")!).searchParams.get("error"))
  const sessions = await Promise.all(browsers.map((b) => b.session()))
  return { backend, log, errors, sessions }
}

test("by default: one user; the second provider gets OAuthAccountNotLinked, never Configuration", async () => {
  const { backend, log, errors, sessions } = await race(false)
  expect([...errors].sort()).toEqual(["OAuthAccountNotLinked", null].sort())
  const users = await backend.users()
  expect(users).toHaveLength(1)
  expect(users[0]).toMatchObject({ email: "ada@example.com" })
  const stored = await backend.accounts()
  expect(stored).toHaveLength(1)
  expect(stored[0]!.userId).toBe(users[0]!.id)
  // The winner is signed in as that user; the refused one has no session.
  const winner = errors.indexOf(null)
  expect(sessions[winner]?.user?.email).toBe("ada@example.com")
  expect(sessions[1 - winner]).toBeNull()
  expect(await backend.sessions()).toHaveLength(1)
  expect(log.errors).toEqual([])
})

test("with allowDangerousEmailAccountLinking and a vouched address: one user with both accounts, both signed in", async () => {
  const { backend, log, errors, sessions } = await race(true)
  expect(errors).toEqual([null, null])
  const users = await backend.users()
  expect(users).toHaveLength(1)
  const stored = await backend.accounts()
  expect(stored.map((a) => a.provider).sort()).toEqual(["idp-a", "idp-b"])
  expect(stored.every((a) => a.userId === users[0]!.id)).toBe(true)
  for (const session of sessions) expect(session?.user?.email).toBe("ada@example.com")
  expect(log.errors).toEqual([])
})

test("one provider account, two browsers at once (a double submit): one user, one account, both signed in", async () => {
  const { backend, log, errors, sessions } = await race(false, [
    ["idp-a", "ada"],
    ["idp-a", "ada"],
  ])
  expect(errors).toEqual([null, null])
  const users = await backend.users()
  expect(users).toHaveLength(1)
  expect(await backend.accounts()).toEqual([expect.objectContaining({ provider: "idp-a" })])
  for (const session of sessions) expect(session?.user?.email).toBe("ada@example.com")
  expect(log.errors).toEqual([])
})

test("a vouched and an unvouched first sign-in of one address at once, the vouched one written first: the unvouched one refused", async () => {
  const { backend, log, errors, sessions } = await race(true, [
    ["idp-a", "ada"],
    ["idp-b", "mallory"],
  ])
  // Even with dangerous linking, an address the provider did not vouch for never matches Ada.
  expect(errors).toEqual([null, "OAuthAccountNotLinked"])
  const users = await backend.users()
  expect(users).toHaveLength(1)
  expect(users[0]).toMatchObject({ email: "ada@example.com", emailVerified: expect.any(Date) })
  expect(await backend.accounts()).toEqual([
    expect.objectContaining({ provider: "idp-a", userId: users[0]!.id }),
  ])
  expect(sessions[0]?.user?.email).toBe("ada@example.com")
  expect(sessions[1]).toBeNull()
  expect(log.errors).toEqual([])
})

test("... the unvouched claim written first: the vouched sign-in releases it and owns the address", async () => {
  const { backend, log, errors, sessions } = await race(true, [
    ["idp-b", "mallory"],
    ["idp-a", "ada"],
  ])
  expect(errors).toEqual([null, null])
  const users = await backend.users()
  expect(users).toHaveLength(2)
  const ada = users.find((u) => u.email === "ada@example.com")!
  expect(ada.emailVerified).toBeInstanceOf(Date)
  const claimer = users.find((u) => u.id !== ada.id)!
  expect(claimer).toMatchObject({ email: null, emailVerified: null })
  const stored = await backend.accounts()
  expect(stored.find((a) => a.provider === "idp-a")?.userId).toBe(ada.id)
  expect(stored.find((a) => a.provider === "idp-b")?.userId).toBe(claimer.id)
  expect(sessions[1]?.user?.email).toBe("ada@example.com")
  expect(log.errors).toEqual([])
})
