/**
 * Audit 11 (issue 9): pre-account takeover, variants the first tests did not
 * try. The attacker holds an unproven claim on the victim's address (a
 * passkey sign-up); the victim then arrives through a provider that does
 * vouch for the address, with `allowDangerousEmailAccountLinking` on, or
 * types the address in another case. The victim must never land in the
 * attacker's account, and the attacker's passkey must never open the
 * victim's.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { Adapter, AuthConfig } from "@tessera/core"
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
import { sqliteBackend } from "../harness/backends.js"
import { PasskeyBrowser as Browser } from "../flows/webauthn/passkey-browser.js"

const ORIGIN = "http://localhost:3000"
const VICTIM = "victim@example.org"

let idp: OidcProviderServer
beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    accounts: { victim: { email: VICTIM, email_verified: true, name: "Victim" } },
  })
})
afterAll(() => idp?.stop())

function app(
  strategy: "database" | "jwt",
  dangerousLinking = true,
  adapter: Adapter = MemoryAdapter(),
) {
  const mailed: string[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    logger: { error() {}, warn() {} },
    rateLimit: { store: new MemoryRateLimitStore() },
    callbacks: {
      session: ({ session, token, user }) => ({
        ...session,
        user: { ...session.user, id: (user?.id ?? token?.sub) as string },
      }),
    },
    providers: [
      Passkey(),
      Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) }),
      { ...localOidcProvider(idp, "local"), allowDangerousEmailAccountLinking: dangerousLinking },
    ],
  }
  return { config, store: (adapter as ReturnType<typeof MemoryAdapter>).store, mailed }
}

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
  test.each([true, false])(
    "a passkey sign-up under the victim's address, then the victim through a verifying provider (dangerous linking: %s): not the attacker's account",
    async (dangerousLinking) => {
      const { config, store } = app(strategy, dangerousLinking)
      const attacker = new Browser(config)
      expect((await attacker.registerNew(VICTIM)).status).toBe(302)
      const attackerId = (await attacker.session()).user.id

      const victim = new Browser(config)
      await signInAtProvider(victim, "victim")
      const session = await victim.session()
      // The victim is signed in, with the address the provider vouched for, in an account of their own.
      expect(session?.user?.email).toBe(VICTIM)
      expect(session?.user?.id ?? null).not.toBe(attackerId)
      const link = [...store.accounts.values()].find((a) => a.provider === "local")
      expect(link?.userId ?? null).not.toBe(attackerId)

      // The attacker's passkey opens only the attacker's own account, without the victim's address.
      await attacker.signOut()
      await attacker.signInWithPasskey()
      const again = (await attacker.session())?.user
      expect(again?.id).toBe(attackerId)
      expect(again?.email ?? null).not.toBe(VICTIM)
    },
  )

  test("a passkey sign-up under the victim's address in capitals and padded, then the victim's e-mail link: not the attacker's account", async () => {
    const { config, store, mailed } = app(strategy)
    const attacker = new Browser(config)
    await attacker.registerNew("  VICTIM@Example.ORG ")
    const attackerId = (await attacker.session())?.user?.id

    const victim = new Browser(config)
    const csrfToken = await victim.csrfToken()
    await victim.fetch("/auth/signin/email", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({ email: VICTIM, csrfToken }),
    })
    const link = new URL(mailed.at(-1)!)
    await victim.fetch(link.pathname + link.search)
    const session = await victim.session()
    expect(session.user.email).toBe(VICTIM)
    expect(session.user.id).not.toBe(attackerId)
    const victimId = session.user.id
    expect([...store.authenticators.values()].some((a) => a.userId === victimId)).toBe(false)
  })
})

test("on SQLite (a unique e-mail column): the passkey claim is released to the victim's e-mail link, no server error", async () => {
  const backend = await sqliteBackend()
  try {
    const { config, mailed } = app("database", true, backend.adapter)
    const errors: unknown[] = []
    config.logger = { error: (e) => void errors.push(e), warn() {} }
    const attacker = new Browser(config)
    expect((await attacker.registerNew(VICTIM)).status).toBe(302)
    const attackerId = (await attacker.session()).user.id

    const victim = new Browser(config)
    const csrfToken = await victim.csrfToken()
    await victim.fetch("/auth/signin/email", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({ email: VICTIM, csrfToken }),
    })
    const link = new URL(mailed.at(-1)!)
    await victim.fetch(link.pathname + link.search)
    const session = await victim.session()
    expect(session.user.email).toBe(VICTIM)
    expect(session.user.id).not.toBe(attackerId)
    const users = await backend.users()
    expect(users.find((u) => u.id === attackerId)?.email ?? null).toBeNull()
    expect(await attacker.session()).toBeNull()
    expect(errors).toEqual([])
  } finally {
    await backend.close()
  }
})
