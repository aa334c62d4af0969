/**
 * Red team, round 10: e-mail identity. The rule under attack: an address
 * nobody proved never identifies or links an account. The GitHub 2019 class:
 * an address that is another mailbox (the attacker's) but that some folding
 * (`toLowerCase`, `toUpperCase`, NFKC, a database collation) turns into the
 * victim's, so the attacker receives the proof and lands in the victim's
 * account. Every attack goes through `Auth()` as an attacker can:
 *
 * - e-mail sign-in with look-alikes of the victim's address (Kelvin sign
 *   U+212A, long s U+017F, dotless i U+0131, capital I with dot U+0130,
 *   fullwidth letters, zero-width and no-break spaces) in the local part and
 *   the domain: the mail goes to exactly the address the link then signs in,
 *   and no look-alike that is another mailbox becomes the victim's address;
 * - the link's `email` value changed (case, spaces, Unicode) and a token
 *   mailed for one address used with another;
 * - OpenID profiles whose address differs from the victim's by case,
 *   Unicode, a trailing dot or spaces, with `email_verified` true, false,
 *   missing or the string "true", with and without
 *   `allowDangerousEmailAccountLinking`;
 * - credentials `authorize` returning a look-alike of an existing user's
 *   address (database sessions store its user). This one was broken: the
 *   address was folded with `toLowerCase()`, so `\u212Aristin@kiosk.test`
 *   was stored, and shown in the session, as `kristin@kiosk.test`.
 *
 * A database that compares addresses loosely is attacked on a real
 * PostgreSQL in packages/sql/test/security/redteam10-collation.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import type { AdapterUser } from "@tessera/core/adapters"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import Credentials from "@tessera/core/providers/credentials"
import Email from "@tessera/core/providers/email"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import {
  completeOidcLogin,
  localOidcProvider,
  MemoryAdapter,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { Browser, recordingLogger, SECRET } from "../harness/index.js"

const VICTIM = "kristin@kiosk.test"

/** An app with e-mail sign-in, an OpenID provider and credentials, and the victim's verified account. */
async function app(
  options: {
    strategy?: "database" | "jwt"
    linking?: boolean
    normalizeIdentifier?: (identifier: string) => string
    method?: "link" | "code"
    authorize?: () => Record<string, unknown> | null
  } = {},
) {
  const adapter = MemoryAdapter()
  const mailed: EmailSendVerificationRequestParams[] = []
  const log = recordingLogger()
  const victim = await adapter.createUser!({
    id: "victim",
    email: VICTIM,
    emailVerified: new Date("2026-01-01T00:00:00Z"),
    name: "Kristin",
  } as AdapterUser)
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: options.strategy ?? "database" },
    logger: { ...log.logger, warn() {} },
    debug: true,
    rateLimit: { store: new MemoryRateLimitStore() },
    callbacks: {
      session: ({ session, token, user }) => ({
        ...session,
        user: { ...session.user, id: (user?.id ?? token?.sub) as string },
      }),
    },
    providers: [
      Email({
        method: options.method ?? "link",
        sendVerificationRequest: (params) => void mailed.push(params),
        ...(options.normalizeIdentifier
          ? { normalizeIdentifier: options.normalizeIdentifier }
          : {}),
      }),
      ...(idp
        ? [
            {
              ...localOidcProvider(idp, "local"),
              allowDangerousEmailAccountLinking: options.linking ?? false,
            },
          ]
        : []),
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: async () => options.authorize?.() ?? null,
      }),
    ],
  }
  return { config, adapter, store: adapter.store, mailed, victim, log }
}

/** POST signin/email for `email` from a fresh browser. */
async function askForLink(config: AuthConfig, email: string) {
  const browser = new Browser(config)
  const csrfToken = await browser.csrfToken()
  const response = await browser.request("/auth/signin/email", { body: { email, csrfToken } })
  return { browser, response }
}

/** Follows the mailed link in `browser`; the session it got (or null). */
async function followLink(browser: Browser, url: string) {
  const link = new URL(url)
  const response = await browser.fetch(link.pathname + link.search)
  return { response, session: await browser.session() }
}

describe("e-mail sign-in with look-alikes of the victim's address (default normalizeIdentifier)", () => {
  // Another mailbox under every folding but a loose one: refused before any mail or token.
  test.each([
    ["Kelvin sign K (U+212A) in the local part", "\u212Aristin@kiosk.test"],
    ["long s (U+017F) in the local part", "kri\u017Ftin@kiosk.test"],
    ["dotless i (U+0131) in the local part", "kr\u0131stin@kiosk.test"],
    ["capital I with dot (U+0130) in the local part", "KR\u0130STIN@kiosk.test"],
    [
      "fullwidth letters in the local part",
      "\uFF4B\uFF52\uFF49\uFF53\uFF54\uFF49\uFF4E@kiosk.test",
    ],
    ["a zero-width space in the local part", "kris\u200Btin@kiosk.test"],
    ["a soft hyphen in the local part", "kris\u00ADtin@kiosk.test"],
    ["a no-break space inside the address", "kristin\u00A0@kiosk.test"],
    ["a trailing dot on the domain", "kristin@kiosk.test."],
  ])("%s: refused, nothing mailed or stored", async (_name, address) => {
    const { config, mailed, store } = await app()
    const { response } = await askForLink(config, address)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toContain("error=EmailSignin")
    expect(mailed).toHaveLength(0)
    expect(store.verificationTokens.size).toBe(0)
  })

  // A domain is what DNS resolves: its IDNA form. The mail goes to that form, the link
  // carries it and signs in its holder; only a domain that *is* the victim's reaches them.
  test.each([
    ["Kelvin sign K in the domain (IDNA: kiosk.test)", "kristin@\u212Aiosk.test", VICTIM],
    ["long s in the domain (IDNA: kiosk.test)", "kristin@kio\u017Fk.test", VICTIM],
    ["fullwidth domain (IDNA: kiosk.test)", "kristin@\uFF4B\uFF49\uFF4F\uFF53\uFF4B.test", VICTIM],
    ["dotless i in the domain", "kristin@k\u0131osk.test", "kristin@xn--kosk-lza.test"],
    ["capital I with dot in the domain", "kristin@K\u0130OSK.test", "kristin@xn--kiosk-8fd.test"],
    ["Cyrillic o in the domain", "kristin@ki\u043Esk.test", "kristin@xn--kisk-65d.test"],
    ["ASCII case and spaces around", "  KRISTIN@Kiosk.TEST\t", VICTIM],
  ])("%s: mailed to exactly the address the link signs in", async (_name, address, expected) => {
    const { config, mailed, victim } = await app()
    const { browser } = await askForLink(config, address)
    expect(mailed.map((m) => m.identifier)).toEqual([expected])
    const url = new URL(mailed[0]!.url)
    expect(url.searchParams.get("email")).toBe(expected)
    const { session } = await followLink(browser, mailed[0]!.url)
    expect(session.user.email).toBe(expected)
    // The victim's account only for the victim's own mailbox.
    expect(session.user.id === victim.id).toBe(expected === VICTIM)
  })

  test("an Auth.js-style normalizeIdentifier (toLowerCase, no IDNA): the mail and the account are one address", async () => {
    // The normalizer from Auth.js's documentation.
    const normalizeIdentifier = (identifier: string) => {
      const [local, domain] = identifier.toLowerCase().trim().split("@")
      return `${local}@${domain!.split(",")[0]}`
    }
    for (const [address, expected] of [
      // toLowerCase folds the Kelvin sign: the mail goes to the victim, not the attacker.
      ["\u212Aristin@kiosk.test", VICTIM],
      // The dotless i survives: another address, another account.
      ["kristin@k\u0131osk.test", "kristin@k\u0131osk.test"],
    ] as const) {
      const { config, mailed, victim } = await app({ normalizeIdentifier })
      const { browser } = await askForLink(config, address)
      expect(mailed.map((m) => m.identifier)).toEqual([expected])
      const { session } = await followLink(browser, mailed[0]!.url)
      expect(session.user.email).toBe(expected)
      expect(session.user.id === victim.id).toBe(expected === VICTIM)
    }
  })
})

describe("a link mailed for one address, used with another", () => {
  test.each([
    ["the victim's address", VICTIM],
    ["the attacker's address in capitals", "MALLORY@EVIL.TEST"],
    ["the attacker's address with a space", " mallory@evil.test"],
    ["the attacker's address with a Kelvin sign", "mallory@evil.tes\u212A"],
    ["the attacker's address in fullwidth", "\uFF4Dallory@evil.test"],
  ])("email=%s: Verification, no session, the token still its owner's", async (_name, other) => {
    const { config, mailed, store } = await app()
    await askForLink(config, "mallory@evil.test")
    const url = new URL(mailed[0]!.url)
    const token = url.searchParams.get("token")!
    // The database holds a keyed hash, never the mailed token.
    expect(JSON.stringify([...store.verificationTokens.values()])).not.toContain(token)

    url.searchParams.set("email", other)
    const attacker = new Browser(config)
    const { response, session } = await followLink(attacker, url.href)
    expect(response.headers.get("location")).toContain("error=Verification")
    expect(session).toBeNull()
    // Nothing consumed: the link still signs in the address it was mailed to.
    const owner = await followLink(new Browser(config), mailed[0]!.url)
    expect(owner.session.user.email).toBe("mallory@evil.test")
  })
})

describe("a one-time code mailed for one address, posted with another", () => {
  test.each([
    ["the victim's address", VICTIM],
    ["the victim's address in capitals", "KRISTIN@KIOSK.TEST"],
    ["the victim's address with a Kelvin sign", "\u212Aristin@kiosk.test"],
  ])("email=%s: refused, no session", async (_name, other) => {
    const { config, mailed, log } = await app({ method: "code" })
    await askForLink(config, "mallory@evil.test")
    const code = mailed[0]!.code!
    const attacker = new Browser(config)
    const csrfToken = await attacker.csrfToken()
    const response = await attacker.request("/auth/callback/email", {
      body: { email: other, code, csrfToken },
    })
    expect(response.headers.get("location")).toContain("error=Verification")
    expect(await attacker.session()).toBeNull()
    expect(log.refusals.map((e) => (e as { type?: string }).type)).toContain("Verification")
  })
})

let idp: OidcProviderServer | undefined
describe("OpenID profiles whose address looks like the victim's", () => {
  const claims: Record<string, Record<string, unknown>> = {
    upper: { email: "KRISTIN@KIOSK.TEST", email_verified: true },
    spaces: { email: " kristin@kiosk.test ", email_verified: true },
    fullwidth: { email: "kristin@\uFF4B\uFF49\uFF4F\uFF53\uFF4B.test", email_verified: true },
    kelvin: { email: "\u212Aristin@kiosk.test", email_verified: true },
    dotless: { email: "kr\u0131stin@kiosk.test", email_verified: true },
    trailingDot: { email: "kristin@kiosk.test.", email_verified: true },
    stringTrue: { email: VICTIM, email_verified: "true" },
    missing: { email: VICTIM, email_verified: undefined },
    unverified: { email: VICTIM, email_verified: false },
  }
  beforeAll(async () => {
    idp = await startOidcProvider({
      redirectUris: ["http://localhost:3000/auth/callback/local"],
      accounts: claims,
    })
  })
  afterAll(() => idp?.stop())

  async function signInAtProvider(config: AuthConfig, accountId: string) {
    const browser = new Browser(config)
    const start = await browser.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
    const response = await browser.fetch(back.url.pathname + back.url.search)
    return { response, session: await browser.session() }
  }

  // [account, with allowDangerousEmailAccountLinking, without]: "linked" to the victim (the
  // provider vouched for the victim's own mailbox), "refused" (OAuthAccountNotLinked), or
  // "apart" (an account of its own, without the address).
  test.each([
    ["upper", "linked", "refused"],
    ["spaces", "linked", "refused"],
    ["fullwidth", "linked", "refused"],
    ["kelvin", "apart", "apart"],
    ["dotless", "apart", "apart"],
    ["trailingDot", "apart", "apart"],
    ["stringTrue", "refused", "refused"],
    ["missing", "refused", "refused"],
    ["unverified", "refused", "refused"],
  ] as const)(
    "%s: %s with dangerous linking, %s without",
    async (account, withLinking, without) => {
      for (const [linking, expected] of [
        [true, withLinking],
        [false, without],
      ] as const) {
        const { config, store, victim } = await app({ linking })
        const { response, session } = await signInAtProvider(config, account)
        const links = [...store.accounts.values()].filter((a) => a.provider === "local")
        if (expected === "linked") {
          expect(session.user.id).toBe(victim.id)
          expect(links.map((a) => a.userId)).toEqual([victim.id])
        } else if (expected === "refused") {
          expect(response.headers.get("location")).toContain("error=OAuthAccountNotLinked")
          expect(session).toBeNull()
          expect(links).toHaveLength(0)
        } else {
          expect(session.user.id).not.toBe(victim.id)
          expect(session.user.email ?? null).toBeNull()
          expect(links.map((a) => a.userId)).toEqual([session.user.id])
        }
        // Whatever happened, the victim's own record is as it was.
        expect(store.users.get(victim.id)).toMatchObject({ email: VICTIM })
      }
    },
  )
})

describe("credentials authorize returning a look-alike of another user's address (database sessions)", () => {
  async function credentialsSignIn(config: AuthConfig) {
    const browser = new Browser(config)
    const csrfToken = await browser.csrfToken()
    const response = await browser.request("/auth/callback/credentials", {
      body: { username: "mallory", password: "pw", csrfToken },
    })
    return { response, session: await browser.session() }
  }

  test.each([
    ["Kelvin sign", "\u212Aristin@kiosk.test"],
    ["capital I with dot", "KR\u0130STIN@kiosk.test"],
    ["fullwidth local part", "\uFF4B\uFF52\uFF49\uFF53\uFF54\uFF49\uFF4E@kiosk.test"],
  ])(
    "%s, before the victim signs up: stored as no address, never as the victim's",
    async (_name, address) => {
      const { config, store, victim, mailed } = await app({
        authorize: () => ({ id: "mallory", email: address, name: "Mallory" }),
      })
      store.users.delete(victim.id)
      const { session } = await credentialsSignIn(config)
      expect(session.user.id).toBe("mallory")
      // Folded with toLowerCase() it became the victim's address, in the database and in
      // the session an app reads `session.user.email` from.
      expect(session.user.email ?? null).toBeNull()
      expect(store.users.get("mallory")!.email ?? null).toBeNull()

      // The victim signs up by e-mail later: their own account, holding their address.
      const { browser } = await askForLink(config, VICTIM)
      const { session: victims } = await followLink(browser, mailed.at(-1)!.url)
      expect(victims.user.email).toBe(VICTIM)
      expect(victims.user.id).not.toBe("mallory")
    },
  )

  test("the victim's address in capitals: refused (error=OAuthAccountNotLinked, as Auth.js shows AccountNotLinked), nothing written", async () => {
    const { config, store } = await app({
      authorize: () => ({ id: "mallory", email: "KRISTIN@KIOSK.TEST", name: "Mallory" }),
    })
    const { response, session } = await credentialsSignIn(config)
    expect(response.headers.get("location")).toContain("error=OAuthAccountNotLinked")
    expect(session).toBeNull()
    expect([...store.users.keys()]).toEqual(["victim"])
    expect(store.sessions.size).toBe(0)
  })
})
