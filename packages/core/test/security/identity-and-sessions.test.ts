/**
 * Identity and session attacks:
 *
 * - look-alike folding: an address a provider reports with the Kelvin sign
 *   (U+212A) in its local part must not become the victim's `k…` address;
 * - provider addresses are normalised exactly like e-mail sign-in ones;
 * - a copied JWT session cookie, presented now and then, must not outlive the
 *   sign-in's absolute lifetime;
 * - passkey options must not tell whether an address has an account, and an
 *   anonymous request must not write a row; a verified answer cannot be replayed.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import { normalizeEmailAddress } from "../../src/flows/email/address.js"
import { Browser as AppBrowser } from "../harness/index.js"
import { issuerOn, StandIn, type FakeIssuer } from "../harness/stand-in.js"
import { get, makeConfig, SECRET, signIn } from "../harness/index.js"
import { SoftAuthenticator } from "@tessera/testing/webauthn-authenticator"
import { PasskeyBrowser as Browser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"

let standIn: StandIn
let issuer: FakeIssuer
/** The claims the next ID Token carries, per test. */
let claims: Record<string, unknown> = {}
beforeAll(async () => {
  standIn = await StandIn.start()
  issuer = await issuerOn(standIn, { idTokenClaims: () => claims })
})
afterAll(() => standIn?.stop())

const provider = (extra: Record<string, unknown> = {}) => ({
  id: "idp",
  name: "IdP",
  type: "oidc" as const,
  issuer: issuer.issuer,
  clientId: "client-1",
  clientSecret: "client-1-secret",
  dangerouslyAllowInsecureHttpRequests: true,
  ...extra,
})

async function oidcSignIn(config: AuthConfig, sub: string) {
  const browser = new AppBrowser(config)
  const start = await browser.startSignIn("idp")
  const done = await browser.request(
    issuer.authorize(new URL(start.headers.get("location")!), sub).href,
  )
  return { browser, done }
}

describe("look-alike addresses", () => {
  test("a non-ASCII local part is refused before case folding: the Kelvin sign never becomes k", () => {
    expect(() => normalizeEmailAddress("\u212Aevin@example.com")).toThrow()
    expect(normalizeEmailAddress(" KEVIN@Example.COM ")).toBe("kevin@example.com")
  })

  test("a provider's '\\u212Aevin@…', even verified, does not link to kevin@…'s account", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser!({
      id: "kevin",
      email: "kevin@example.com",
      emailVerified: new Date(),
    })
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      logger: { error() {}, warn() {} },
      providers: [provider({ allowDangerousEmailAccountLinking: true })],
    }
    claims = { email: "\u212Aevin@example.com", email_verified: true }
    await oidcSignIn(config, "mallory")
    const linked = [...adapter.store.accounts.values()].find((a) => a.provider === "idp")!
    expect(linked.userId).not.toBe("kevin")
    expect(adapter.store.users.get(linked.userId)!.email ?? null).not.toBe("kevin@example.com")
  })

  test("a provider's address is trimmed and lower-cased like an e-mail sign-in address", async () => {
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      providers: [provider()],
    }
    claims = { email: "  Ada@Example.COM ", email_verified: true }
    await oidcSignIn(config, "ada")
    const [user] = [...adapter.store.users.values()]
    expect(user!.email).toBe("ada@example.com")
    expect(user!.emailVerified).toBeInstanceOf(Date)
  })
})

describe("the absolute lifetime of JWT sessions", () => {
  test("a copied cookie refreshed every day still ends 30 days after the sign-in", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      const start = Date.now()
      const { config } = makeConfig({ session: { maxAge: 7 * 86_400, updateAge: 3_600 } })
      const { jar } = await signIn(config)
      let alive = true
      for (let day = 1; day <= 31 && alive; day++) {
        vi.setSystemTime(start + day * 86_400_000)
        const response = await Auth(get("/auth/session", { jar }), config)
        jar.update(response)
        alive = (await response.json()) !== null
        if (day < 30) expect(alive, `day ${day}`).toBe(true)
      }
      expect(alive).toBe(false)
    } finally {
      vi.useRealTimers()
    }
  })

  test("session.absoluteMaxAge is configurable", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      const start = Date.now()
      const { config } = makeConfig({ session: { absoluteMaxAge: 3_600, updateAge: 60 } })
      const { jar } = await signIn(config)
      vi.setSystemTime(start + 30 * 60_000)
      expect(await (await Auth(get("/auth/session", { jar }), config)).json()).not.toBeNull()
      vi.setSystemTime(start + 61 * 60_000)
      expect(await (await Auth(get("/auth/session", { jar }), config)).json()).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })
})

describe("passkey options", () => {
  test("the same status and shape for an address with an account and one without; no row written", async () => {
    const { config, adapter, store } = passkeyConfig()
    await adapter.createUser!({ id: "u1", email: "known@example.com", emailVerified: new Date() })
    const before = store.verificationTokens.size + store.users.size
    const answers = []
    for (const email of ["known@example.com", "unknown@example.com"]) {
      const { status, body } = await new Browser(config).options({ email })
      answers.push({ status, action: body.action, keys: Object.keys(body.options).sort() })
    }
    expect(answers[0]).toEqual(answers[1])
    expect(store.verificationTokens.size + store.users.size).toBe(before)
  })

  test("a verified answer replayed with the same challenge cookie is refused, even when the counter stays 0", async () => {
    const { config } = passkeyConfig()
    // Synced passkeys report 0 every time: the counter check alone would let a replay through.
    const browser = new Browser(config, undefined, new SoftAuthenticator({ counterStep: 0 }))
    await browser.registerNew("ada@example.com")
    await browser.signOut()
    const { body } = await browser.options({ action: "authenticate" })
    const cookie = browser.jar.get("tessera.challenge")!
    const answer = browser.authenticator.authenticate(body.options, { origin: browser.origin })
    expect((await browser.callback("authenticate", answer)).headers.get("location")).toBe(
      "http://localhost:3000",
    )
    // An eavesdropper with the cookie and the answer, in a browser of their own.
    const replayer = new Browser(config)
    replayer.jar.set("tessera.challenge", cookie)
    const replay = await replayer.callback("authenticate", answer)
    expect(replay.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=Callback")
    expect(await replayer.session()).toBeNull()
  })
})
