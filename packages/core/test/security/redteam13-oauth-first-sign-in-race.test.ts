/**
 * Two different OpenID providers (two oidc-provider issuers) finish a first sign-in for the
 * same e-mail address at the same moment, on SQLite (`@tessera/sql` on a file). Both sign-ins
 * look the address up, find no one, and try to create a user: the unique e-mail column lets one
 * through. The other must end as if it had come second, never as `error=Configuration`:
 * `OAuthAccountNotLinked` by default; linked to the one user when the provider allows dangerous
 * linking and vouches for the address.
 *
 * The interleaving is made deterministic by holding the real adapter's `createUserAndAccount`
 * until both sign-ins reach it (so both have looked the address up before either writes); the
 * writes themselves are the real SQLite adapter's.
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
const accounts = { ada: { email: "ada@example.com", email_verified: true } }
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

/** The real adapter, whose `createUserAndAccount` waits until `count` sign-ins have reached it. */
function holdingFirstWrites(adapter: Adapter, count = 2): Adapter {
  let arrived = 0
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  return {
    ...adapter,
    async createUserAndAccount(user, account) {
      if (++arrived === count) release()
      await gate
      return adapter.createUserAndAccount!(user, account)
    },
  }
}

async function race(dangerous: boolean) {
  backend = await sqliteBackend()
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    adapter: holdingFirstWrites(backend.adapter),
    session: { strategy: "database" },
    providers: ["idp-a", "idp-b"].map((id, i) => ({
      ...localOidcProvider(idps[i]!, id),
      allowDangerousEmailAccountLinking: dangerous,
    })),
  }
  const browsers = [new Browser(config), new Browser(config)]
  // Both up to the callback first: the provider's login is not part of the race.
  const callbacks = await Promise.all(
    ["idp-a", "idp-b"].map(async (id, i) => {
      const start = await browsers[i]!.startSignIn(id)
      const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "ada" })
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
