/**
 * Pre-account takeover: an attacker creates an account under the victim's
 * e-mail address before the victim ever signs up, and waits. Two ways in:
 * a passkey registered for `victim@example.org`, and a sign-in through an
 * OpenID provider that reports the address with `email_verified: false`.
 *
 * Whatever the victim then does to sign in with their address (an e-mail
 * link), they must land in an account the attacker has no way into: no
 * session of the attacker's, no passkey of the attacker's, no linked account.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import Email from "@tessera/core/providers/email"
import Passkey from "@tessera/core/providers/passkey"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import {
  completeOidcLogin,
  localOidcProvider,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { SECRET } from "../harness/index.js"
import { PasskeyBrowser as Browser } from "../flows/webauthn/passkey-browser.js"

const ORIGIN = "http://localhost:3000"
const VICTIM = "victim@example.org"

let idp: OidcProviderServer
beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    accounts: {
      // The attacker typed the victim's address at the provider, which never checked it.
      mallory: { email: VICTIM, email_verified: false, name: "Mallory" },
    },
  })
})
afterAll(() => idp?.stop())

function app(strategy: "database" | "jwt", extra: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const mailed: string[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    logger: { error() {}, warn() {} },
    // The victim signs in by e-mail more often than real users do in an hour.
    rateLimit: { store: new MemoryRateLimitStore() },
    // Sessions name the account they are on (the default callback shows no id).
    callbacks: {
      session: ({ session, token, user }) => ({
        ...session,
        user: { ...session.user, id: (user?.id ?? token?.sub) as string },
      }),
    },
    providers: [
      Passkey(),
      Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) }),
      localOidcProvider(idp, "local"),
    ],
    ...extra,
  }
  return { config, adapter, store: adapter.store, mailed }
}

/** The victim signs in with an e-mail link, as they always would. */
async function victimSignsInByEmail(browser: Browser, mailed: string[]) {
  const csrfToken = await browser.csrfToken()
  await browser.fetch("/auth/signin/email", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    body: new URLSearchParams({ email: VICTIM, csrfToken }),
  })
  const link = new URL(mailed.at(-1)!)
  await browser.fetch(link.pathname + link.search)
  return browser.session()
}

/** A sign-in at the local OpenID provider as `accountId`, through the real authorization flow. */
async function signInAtProvider(browser: Browser, accountId: string) {
  const csrfToken = await browser.csrfToken()
  const start = await browser.fetch("/auth/signin/local", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    body: new URLSearchParams({ csrfToken }),
  })
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
  return browser.fetch(back.url.pathname + back.url.search)
}

describe.each(["database", "jwt"] as const)("with %s sessions", (strategy) => {
  test("a passkey registered for the victim's address does not open the account the victim uses", async () => {
    const { config, store, mailed } = app(strategy)
    const attacker = new Browser(config)
    expect((await attacker.registerNew(VICTIM)).status).toBe(302)
    const attackerAccount = (await attacker.session()).user
    expect(attackerAccount.email).toBe(VICTIM)

    const victim = new Browser(config)
    const session = await victimSignsInByEmail(victim, mailed)
    expect(session.user.email).toBe(VICTIM)

    // Two accounts: the victim's own, verified; the attacker's, which lost the unproven address.
    const users = [...store.users.values()]
    expect(users).toHaveLength(2)
    const victimUser = users.find((u) => u.email === VICTIM)!
    expect(victimUser.emailVerified).toBeInstanceOf(Date)
    expect(users.find((u) => u.id !== victimUser.id)!.email).toBeNull()
    // The victim's account has no passkey of the attacker's.
    expect([...store.authenticators.values()].some((a) => a.userId === victimUser.id)).toBe(false)

    // The release ended the attacker's sessions (database sessions at once; a JWT session
    // within session.revalidateAge, until then still only their own account), and their
    // passkey leads only to their own account.
    const after = (await attacker.session())?.user?.id ?? null
    if (strategy === "database") expect(after).toBeNull()
    else expect([null, attackerAccount.id]).toContain(after)
    await attacker.signOut()
    await attacker.signInWithPasskey()
    const again = (await attacker.session()).user
    expect(again.id).toBe(attackerAccount.id)
    expect(again.id).not.toBe(victimUser.id)
    expect(again.email ?? null).not.toBe(VICTIM)
    if (strategy === "database") {
      expect([...store.sessions.values()].filter((s) => s.userId === victimUser.id)).toHaveLength(1)
    }
  })

  test("an OpenID sign-in with email_verified: false does not open the account the victim uses", async () => {
    const { config, store, mailed } = app(strategy)
    const attacker = new Browser(config)
    expect((await signInAtProvider(attacker, "mallory")).status).toBe(302)
    expect((await attacker.session()).user.name).toBe("Mallory")

    const victim = new Browser(config)
    const session = await victimSignsInByEmail(victim, mailed)
    expect(session.user.email).toBe(VICTIM)

    const victimUser = [...store.users.values()].find((u) => u.email === VICTIM)!
    expect(victimUser.emailVerified).toBeInstanceOf(Date)
    // The provider account stays with the attacker's user, not the victim's.
    const links = [...store.accounts.values()].filter((a) => a.provider === "local")
    expect(links).toHaveLength(1)
    expect(links[0]!.userId).not.toBe(victimUser.id)
    // Signing in at the provider again still lands in the attacker's own account.
    const again = new Browser(config)
    await signInAtProvider(again, "mallory")
    const user = (await again.session()).user
    expect(user.id).toBe(links[0]!.userId)
    expect(user.email ?? null).not.toBe(VICTIM)
  })
})

test("with allowDangerousEmailAccountLinking, an unverified address still never links to the victim's account", async () => {
  const { config, store, mailed } = app("database", {
    providers: [
      Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) }),
      { ...localOidcProvider(idp, "local"), allowDangerousEmailAccountLinking: true },
    ],
  })
  const victim = new Browser(config)
  await victimSignsInByEmail(victim, mailed)
  const victimUser = [...store.users.values()][0]!

  const attacker = new Browser(config)
  const response = await signInAtProvider(attacker, "mallory")
  expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`)
  expect(await attacker.session()).toBeNull()
  expect(
    [...store.accounts.values()].some((a) => a.userId === victimUser.id && a.provider === "local"),
  ).toBe(false)
})

test("a provider that vouches for the address (email_verified: true) still needs the option to link", async () => {
  const { config, store, mailed } = app("database", {
    providers: [
      Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) }),
      localOidcProvider(idp, "local"),
    ],
  })
  const victim = new Browser(config)
  await victimSignsInByEmail(victim, mailed)
  // "victim" at the provider: its default claims say victim@example.test, verified; another address.
  const other = new Browser(config)
  await signInAtProvider(other, "victim")
  expect([...store.users.values()]).toHaveLength(2)
})
