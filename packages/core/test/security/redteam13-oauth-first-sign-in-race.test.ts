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
 * Also two sign-ins of one provider account that both link it (to the holder of the address
 * with dangerous linking, or to a user signed in on two devices).
 *
 * The first two tests fail with `error=Configuration` when core's `decideAgain` retry
 * (flows/sign-in/users.ts) is taken out; with it, those five held. The two linking tests failed
 * (`error=Configuration`, an `AdapterError` logged: the unique (provider, account id) refused
 * the second link) before the link too was decided again (`linkOnce`, flows/oauth/persist.ts).
 */
import { afterAll, afterEach, beforeAll, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import type { Adapter, AdapterAccount } from "@tessera/core/adapters"
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

type HeldWrite = "createUserAndAccount" | "linkAccount"

/**
 * The real adapter, whose `write` (creating a user with the account, or linking an account)
 * waits until `count` sign-ins have reached it (all have looked up the address and the provider
 * account); then the write for provider `first` goes, and the others once it has ended.
 */
function holdingFirstWrites(adapter: Adapter, first: string, write: HeldWrite, count = 2): Adapter {
  let arrived = 0
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  let firstEnded!: () => void
  const afterFirst = new Promise<void>((resolve) => (firstEnded = resolve))
  let firstTaken = false
  const real = adapter[write] as (...args: unknown[]) => Promise<unknown>
  return {
    ...adapter,
    [write](...args: unknown[]) {
      if (++arrived === count) release()
      const { provider } = args.at(-1) as AdapterAccount
      const isFirst = !firstTaken && provider === first
      if (isFirst) firstTaken = true
      const done = (isFirst ? gate : gate.then(() => afterFirst)).then(() =>
        real.apply(adapter, args),
      )
      if (isFirst) void done.then(firstEnded, firstEnded)
      return done
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
  options: {
    hold?: HeldWrite
    before?: (backend: Backend) => Promise<unknown>
    /** Each browser is signed in through this provider first (one after the other). */
    signedInVia?: string
  } = {},
) {
  backend = await sqliteBackend()
  await options.before?.(backend)
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    // The first sign-in listed writes first.
    adapter: holdingFirstWrites(
      backend.adapter,
      signIns[0]![0],
      options.hold ?? "createUserAndAccount",
    ),
    session: { strategy: "database" },
    providers: ["idp-a", "idp-b"].map((id, i) => ({
      ...localOidcProvider(idps[i]!, id),
      allowDangerousEmailAccountLinking: dangerous,
    })),
  }
  const browsers = signIns.map(() => new Browser(config))
  for (const browser of options.signedInVia ? browsers : []) {
    const start = await browser.startSignIn(options.signedInVia!)
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "ada" })
    await browser.request(back.url.pathname + back.url.search)
    expect((await browser.session())?.user?.email).toBe("ada@example.com")
  }
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

test("dangerous linking to Ada, one provider account in two browsers at once: linked once, both signed in as Ada", async () => {
  const ada = {
    id: crypto.randomUUID(),
    name: "Ada",
    email: "ada@example.com",
    emailVerified: new Date(),
    image: null,
  }
  const { backend, log, errors, sessions } = await race(
    true,
    [
      ["idp-a", "ada"],
      ["idp-a", "ada"],
    ],
    { hold: "linkAccount", before: (b) => b.adapter.createUser!(ada) },
  )
  // The second link finds the account linked meanwhile, to Ada: she signs in, never Configuration.
  expect(errors).toEqual([null, null])
  expect(await backend.users()).toHaveLength(1)
  expect(await backend.accounts()).toEqual([
    expect.objectContaining({ provider: "idp-a", userId: ada.id }),
  ])
  for (const session of sessions) expect(session?.user?.email).toBe("ada@example.com")
  expect(log.errors).toEqual([])
})

test("Ada, signed in on two devices, links one provider account from both at once: linked once, to her", async () => {
  const { backend, log, errors, sessions } = await race(
    false,
    [
      ["idp-a", "ada"],
      ["idp-a", "ada"],
    ],
    { hold: "linkAccount", signedInVia: "idp-b" },
  )
  expect(errors).toEqual([null, null])
  const users = await backend.users()
  expect(users).toHaveLength(1)
  const stored = await backend.accounts()
  expect(stored.map((a) => a.provider).sort()).toEqual(["idp-a", "idp-b"])
  expect(stored.every((a) => a.userId === users[0]!.id)).toBe(true)
  for (const session of sessions) expect(session?.user?.email).toBe("ada@example.com")
  expect(log.errors).toEqual([])
})
