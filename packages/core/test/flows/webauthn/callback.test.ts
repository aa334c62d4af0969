import { generateKeyPairSync } from "node:crypto"
import { afterEach, describe, expect, it, test, vi } from "vitest"
import Passkey from "@tessera/core/providers/passkey"
import type { Adapter } from "@tessera/core/adapters"
import { MemoryAdapter } from "@tessera/testing"
import { SoftAuthenticator, flags } from "@tessera/testing/webauthn-authenticator"
import { PasskeyBrowser, passkeyConfig, type Logged } from "./passkey-browser.js"

const SIGNIN_ERROR = "http://localhost:3000/auth/signin?error=Callback"

/** A refusal: back to the sign-in page, no session, a logged WebAuthnVerificationError. */
async function expectRefused(response: Response, errors: Logged[], reason: RegExp) {
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).toBe(SIGNIN_ERROR)
  expect(response.headers.getSetCookie().some((c) => c.includes("session-token"))).toBe(false)
  const logged = errors.at(-1)
  expect(logged?.type).toBe("WebAuthnVerificationError")
  expect(`${logged?.message} ${logged?.cause ?? ""}`).toMatch(reason)
}

/** A user with one passkey, signed out again. */
async function registeredUser(authenticator?: SoftAuthenticator) {
  const setup = passkeyConfig()
  const browser = new PasskeyBrowser(setup.config, undefined, authenticator)
  expect((await browser.registerNew("user@example.com")).status).toBe(302)
  await browser.signOut()
  expect(await browser.session()).toBeNull()
  const [credentialId] = browser.authenticator.credentials.keys()
  return { ...setup, browser, credentialId: credentialId! }
}

afterEach(() => {
  vi.useRealTimers()
})

describe("POST callback/<passkey>: registration", () => {
  it("creates the user, links the account, stores the authenticator and signs in", async () => {
    const events: string[] = []
    const { config, store, errors } = passkeyConfig({
      events: {
        createUser: () => void events.push("createUser"),
        linkAccount: () => void events.push("linkAccount"),
        signIn: ({ isNewUser }) => void events.push(`signIn:${isNewUser}`),
      },
    })
    const browser = new PasskeyBrowser(config)
    const { body } = await browser.options({ email: "ada@example.com", name: "Ada" })
    const credential = browser.authenticator.register(body.options, { origin: browser.origin })
    const response = await browser.callback("register", credential, { callbackUrl: "/dashboard" })

    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("http://localhost:3000/dashboard")
    const cookies = response.headers.getSetCookie()
    expect(cookies.find((c) => c.startsWith("tessera.session-token="))).toMatch(/HttpOnly/)
    expect(cookies.find((c) => c.startsWith("tessera.challenge="))).toMatch(/Max-Age=0/)

    const [user] = [...store.users.values()]
    expect(user).toMatchObject({ email: "ada@example.com", name: "Ada", emailVerified: null })
    expect(Buffer.from(body.options.user.id, "base64url").toString()).toBe(user!.id)
    expect([...store.accounts.values()]).toEqual([
      { userId: user!.id, type: "webauthn", provider: "passkey", providerAccountId: credential.id },
    ])
    const stored = store.authenticators.get(credential.id)!
    expect(stored).toMatchObject({
      credentialID: credential.id,
      providerAccountId: credential.id,
      userId: user!.id,
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "internal",
    })
    expect(stored.credentialPublicKey).toMatch(/^[A-Za-z0-9_-]+$/) // base64url COSE key
    // The verified answer's challenge is recorded as used (single use); nothing else is.
    expect([...store.verificationTokens.values()].map((t) => t.identifier)).toEqual([
      "webauthn-used:passkey",
    ])
    expect(events).toEqual(["createUser", "linkAccount", "signIn:true"])
    expect((await browser.session()).user.email).toBe("ada@example.com")
    expect(errors).toEqual([])
  })

  it("answers JSON { url } with X-Auth-Return-Redirect (the page's script), also for refusals", async () => {
    const { config } = passkeyConfig()
    const browser = new PasskeyBrowser(config)
    const { body } = await browser.options({ email: "json@example.com" })
    const credential = browser.authenticator.register(body.options, { origin: browser.origin })
    const response = await browser.callback(
      "register",
      credential,
      {},
      { "x-auth-return-redirect": "1" },
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: "http://localhost:3000" })
    expect(
      response.headers.getSetCookie().some((c) => c.startsWith("tessera.session-token=")),
    ).toBe(true)

    const replay = await browser.callback(
      "register",
      credential,
      {},
      { "x-auth-return-redirect": "1" },
    )
    expect(await replay.json()).toEqual({ url: SIGNIN_ERROR })
  })

  it("adds a passkey to the signed-in user instead of creating one", async () => {
    const { config, store, browser } = await registeredUser()
    await browser.signInWithPasskey()
    const userId = [...store.users.keys()][0]
    const laptop = new SoftAuthenticator()
    const { body } = await browser.options()
    expect(body.action).toBe("register")
    const credential = laptop.register(body.options, { origin: browser.origin })
    const response = await browser.callback("register", credential)
    expect(response.status).toBe(302)
    expect(store.users.size).toBe(1)
    expect(store.authenticators.get(credential.id)?.userId).toBe(userId)
    expect([...store.accounts.values()].filter((a) => a.userId === userId)).toHaveLength(2)
    void config
  })

  it("works with JWT sessions too: the token's subject is the stored user", async () => {
    const { config, store } = passkeyConfig({ session: { strategy: "jwt" } })
    const browser = new PasskeyBrowser(config)
    expect((await browser.registerNew("jwt@example.com")).status).toBe(302)
    expect(browser.jar.get("tessera.session-token")).toMatch(/^ey/) // a JWE, not a database token
    // Only the JWT session's record, which sign-out deletes.
    expect([...store.sessions.keys()].every((key) => key.startsWith("record:"))).toBe(true)
    expect(store.sessions.size).toBe(1)
    await browser.signOut()
    expect(store.sessions.size).toBe(0)
    expect((await browser.signInWithPasskey()).headers.get("location")).toBe(
      "http://localhost:3000",
    )
    const { body } = await browser.options()
    expect(body.action).toBe("register")
    const laptop = new SoftAuthenticator()
    expect(
      (
        await browser.callback(
          "register",
          laptop.register(body.options, { origin: browser.origin }),
        )
      ).status,
    ).toBe(302)
    const [user] = [...store.users.values()]
    expect([...store.authenticators.values()].map((a) => a.userId)).toEqual([user!.id, user!.id])
  })

  it("refuses when the signed-in user changed between options and response", async () => {
    const { store, browser, errors } = await registeredUser()
    await browser.signInWithPasskey()
    const { body } = await browser.options() // register for the signed-in user
    await browser.signOut()
    const credential = new SoftAuthenticator().register(body.options, { origin: browser.origin })
    await expectRefused(
      await browser.callback("register", credential),
      errors,
      /signed-in user changed/,
    )
    expect(store.authenticators.size).toBe(1)
  })

  it("refuses a credential that is registered already, and a response whose id is not its credential's", async () => {
    const { config, store, errors } = passkeyConfig()
    const browser = new PasskeyBrowser(config)
    const { body } = await browser.options({ email: "one@example.com" })
    const credential = browser.authenticator.register(body.options, { origin: browser.origin })
    expect((await browser.callback("register", credential)).status).toBe(302)
    await browser.signOut()

    // The authenticator answers a new registration with the credential it already has.
    const again = await browser.options({ email: "two@example.com" })
    const same = browser.authenticator.register(again.body.options, {
      origin: browser.origin,
      credentialId: credential.id,
    })
    expect(same.id).toBe(credential.id)
    await expectRefused(await browser.callback("register", same), errors, /registered already/)

    // A response claiming another credential id than the one in its authenticator data.
    const third = await browser.options({ email: "three@example.com" })
    const fresh = browser.authenticator.register(third.body.options, { origin: browser.origin })
    await expectRefused(
      await browser.callback("register", { ...fresh, id: credential.id, rawId: credential.id }),
      errors,
      /does not match/,
    )
    expect(store.users.size).toBe(1)
    expect(store.authenticators.size).toBe(1)
  })

  it("refuses a wrong origin, a wrong rp id, a wrong type, missing user verification", async () => {
    const cases: [string, object, RegExp][] = [
      ["origin", { origin: "http://evil.example:3000" }, /origin that is not allowed/],
      ["rp id", { rpId: "evil.example" }, /RP ID/],
      ["type", { type: "webauthn.get" }, /not a webauthn.create response/],
      ["uv", { flags: flags.UP | flags.AT }, /User verification/],
      [
        "challenge",
        { challenge: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
        /another challenge/,
      ],
    ]
    for (const [what, override, reason] of cases) {
      const { config, store, errors } = passkeyConfig()
      const browser = new PasskeyBrowser(config)
      const { body } = await browser.options({ email: `${what.replace(" ", "")}@example.com` })
      const credential = browser.authenticator.register(body.options, {
        origin: browser.origin,
        ...override,
      })
      await expectRefused(await browser.callback("register", credential), errors, reason)
      expect(store.users.size, what).toBe(0)
      expect(store.authenticators.size, what).toBe(0)
      // Refused before its signature counted: no row at all (the cookie is cleared instead).
      expect(store.verificationTokens.size, what).toBe(0)
    }
  })

  it("writes nothing when the signIn callback refuses", async () => {
    const { config, store, errors } = passkeyConfig({ callbacks: { signIn: () => false } })
    const browser = new PasskeyBrowser(config)
    const { body } = await browser.options({ email: "no@example.com" })
    const response = await browser.callback(
      "register",
      browser.authenticator.register(body.options, { origin: browser.origin }),
    )
    expect(response.headers.get("location")).toBe(
      "http://localhost:3000/auth/error?error=AccessDenied",
    )
    expect(store.users.size + store.accounts.size + store.authenticators.size).toBe(0)
    // Only the spent challenge is on record: the verified answer cannot be replayed.
    expect([...store.verificationTokens.values()].map((t) => t.identifier)).toEqual([
      "webauthn-used:passkey",
    ])
    expect(errors.at(-1)?.type).toBe("AccessDenied")
  })
})

describe("POST callback/<passkey>: authentication", () => {
  it("signs in with a stored passkey and advances the counter", async () => {
    const { browser, store, credentialId, errors } = await registeredUser()
    expect(store.authenticators.get(credentialId)!.counter).toBe(0)
    const response = await browser.signInWithPasskey()
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("http://localhost:3000")
    expect((await browser.session()).user.email).toBe("user@example.com")
    expect(store.authenticators.get(credentialId)!.counter).toBe(1)
    expect(store.users.size).toBe(1)
    // The registration's and this sign-in's challenges, each recorded once used.
    expect(store.verificationTokens.size).toBe(2)
    expect(errors).toEqual([])
  })

  it("refuses a counter that goes backwards or stands still, and keeps the stored one", async () => {
    const { browser, store, credentialId, errors } = await registeredUser()
    await browser.signInWithPasskey() // counter 1
    await browser.signInWithPasskey() // counter 2
    await browser.signOut()
    for (const counter of [1, 2]) {
      const { body } = await browser.options({ action: "authenticate" })
      const assertion = browser.authenticator.authenticate(body.options, {
        origin: browser.origin,
        counter,
      })
      await expectRefused(await browser.callback("authenticate", assertion), errors, /counter/)
      expect(store.authenticators.get(credentialId)!.counter).toBe(2)
    }
    expect(await browser.session()).toBeNull()
  })

  it("refuses an unknown credential", async () => {
    const { browser, errors } = await registeredUser()
    const stranger = new SoftAuthenticator()
    const { body } = await browser.options({ action: "authenticate" })
    stranger.register(
      { rp: { id: "localhost" }, user: { id: "eA" }, challenge: "x" },
      { origin: browser.origin },
    )
    const assertion = stranger.authenticate(body.options, { origin: browser.origin })
    await expectRefused(
      await browser.callback("authenticate", assertion),
      errors,
      /not registered here/,
    )
  })

  it("refuses a wrong origin, rp id, type, missing verification, a bad signature, another challenge", async () => {
    const otherKey = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey
    const cases: [string, object, RegExp][] = [
      ["origin", { origin: "https://localhost:3000" }, /origin that is not allowed/],
      ["rp id", { rpId: "evil.example" }, /RP ID/],
      ["type", { type: "webauthn.create" }, /not a webauthn.get response/],
      ["uv", { flags: flags.UP }, /User verification/],
      ["up", { flags: flags.UV }, /User not present/],
      ["signature", { signingKey: otherKey }, /could not be verified/],
      [
        "challenge",
        { challenge: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
        /another challenge/,
      ],
    ]
    const { browser, store, credentialId, errors } = await registeredUser()
    const recorded = store.verificationTokens.size
    for (const [what, override, reason] of cases) {
      const { body } = await browser.options({ action: "authenticate" })
      const assertion = browser.authenticator.authenticate(body.options, {
        origin: browser.origin,
        ...override,
      })
      await expectRefused(await browser.callback("authenticate", assertion), errors, reason)
      expect(store.authenticators.get(credentialId)!.counter, what).toBe(0)
      expect(store.verificationTokens.size, what).toBe(recorded)
    }
    expect(await browser.session()).toBeNull()
  })

  it("refuses a reused challenge, even from an authenticator whose counter stays 0", async () => {
    const { browser, errors } = await registeredUser(new SoftAuthenticator({ counterStep: 0 }))
    const { body } = await browser.options({ action: "authenticate" })
    const cookie = browser.jar.get("tessera.challenge")!
    const assertion = browser.authenticator.authenticate(body.options, { origin: browser.origin })
    expect((await browser.callback("authenticate", assertion)).headers.get("location")).toBe(
      "http://localhost:3000",
    )
    await browser.signOut()
    // Replay the very same cookie and response (as someone who copied both would).
    browser.jar.set("tessera.challenge", cookie)
    await expectRefused(await browser.callback("authenticate", assertion), errors, /already used/)
    expect(await browser.session()).toBeNull()
  })

  it("refuses without a challenge cookie, with a tampered one, an expired one, or one for the other action", async () => {
    const { browser, errors, store } = await registeredUser()

    const { body } = await browser.options({ action: "authenticate" })
    browser.jar.delete("tessera.challenge")
    await expectRefused(
      await browser.callback(
        "authenticate",
        browser.authenticator.authenticate(body.options, { origin: browser.origin }),
      ),
      errors,
      /No passkey challenge/,
    )

    const second = await browser.options({ action: "authenticate" })
    const value = browser.jar.get("tessera.challenge")!
    browser.jar.set(
      "tessera.challenge",
      value.slice(0, -4) + (value.endsWith("AAAA") ? "BBBB" : "AAAA"),
    )
    await expectRefused(
      await browser.callback(
        "authenticate",
        browser.authenticator.authenticate(second.body.options, { origin: browser.origin }),
      ),
      errors,
      /invalid or expired/,
    )

    const forRegistration = await browser.options({ email: "other@example.com" })
    const credential = browser.authenticator.authenticate(
      { ...forRegistration.body.options, rpId: "localhost" },
      { origin: browser.origin },
    )
    await expectRefused(
      await browser.callback("authenticate", credential),
      errors,
      /issued to register/,
    )

    vi.useFakeTimers({ toFake: ["Date"] })
    const third = await browser.options({ action: "authenticate" })
    vi.setSystemTime(Date.now() + 301_000)
    await expectRefused(
      await browser.callback(
        "authenticate",
        browser.authenticator.authenticate(third.body.options, { origin: browser.origin }),
      ),
      errors,
      /expired/,
    )
    vi.useRealTimers()

    expect(store.authenticators.values().next().value!.counter).toBe(0)
  })

  it("refuses a challenge issued for another provider", async () => {
    const { config, errors } = passkeyConfig({
      providers: [Passkey(), Passkey({ id: "keys", enableConditionalUI: false })],
    })
    const browser = new PasskeyBrowser(config)
    expect((await browser.registerNew("p@example.com")).status).toBe(302)
    await browser.signOut()
    const { body } = await browser.options({ action: "authenticate" }, "keys")
    const assertion = browser.authenticator.authenticate(body.options, { origin: browser.origin })
    await expectRefused(
      await browser.callback("authenticate", assertion),
      errors,
      /another provider/,
    )
  })

  it("never logs a challenge", async () => {
    const { browser, errors } = await registeredUser()
    const challenges: string[] = []
    for (const override of [
      { challenge: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
      { origin: "http://evil.example" },
      { rpId: "evil.example" },
    ]) {
      const { body } = await browser.options({ action: "authenticate" })
      challenges.push(body.options.challenge)
      await browser.callback(
        "authenticate",
        browser.authenticator.authenticate(body.options, { origin: browser.origin, ...override }),
      )
    }
    expect(errors.length).toBeGreaterThanOrEqual(3)
    const logged = JSON.stringify(errors)
    for (const challenge of challenges) expect(logged).not.toContain(challenge)
  })
})

/** A memory adapter recording its counter writes; `swap: false` is an Auth.js adapter (no compare-and-set). */
function counterAdapter({ swap }: { swap: boolean }) {
  const base = MemoryAdapter()
  const writes: string[] = []
  const adapter: Adapter = {
    ...base,
    async updateAuthenticatorCounter(id, newCounter) {
      writes.push(`update ${newCounter}`)
      return base.updateAuthenticatorCounter!(id, newCounter)
    },
  }
  if (swap)
    adapter.swapAuthenticatorCounter = async (id, expected, newCounter) => {
      writes.push(`swap ${expected} -> ${newCounter}`)
      return base.swapAuthenticatorCounter!(id, expected, newCounter)
    }
  else delete adapter.swapAuthenticatorCounter
  return { adapter, store: base.store, writes }
}

describe("POST callback/<passkey>: storing the counter", () => {
  async function signInTwice(swap: boolean, authenticator?: SoftAuthenticator) {
    const { adapter, store, writes } = counterAdapter({ swap })
    const { config, errors } = passkeyConfig({ adapter })
    const browser = new PasskeyBrowser(config, undefined, authenticator)
    expect((await browser.registerNew("user@example.com")).status).toBe(302)
    for (let i = 0; i < 2; i++) {
      await browser.signOut()
      expect((await browser.signInWithPasskey()).headers.get("location")).toBe(
        "http://localhost:3000",
      )
    }
    expect(errors).toEqual([])
    const [credentialId] = browser.authenticator.credentials.keys()
    return { writes, counter: store.authenticators.get(credentialId!)!.counter }
  }

  it("with swapAuthenticatorCounter: a compare-and-set from the counter the verification read", async () => {
    const { writes, counter } = await signInTwice(true)
    expect(writes).toEqual(["swap 0 -> 1", "swap 1 -> 2"])
    expect(counter).toBe(2)
  })

  it("without it (an Auth.js adapter): updateAuthenticatorCounter, as before", async () => {
    const { writes, counter } = await signInTwice(false)
    expect(writes).toEqual(["update 1", "update 2"])
    expect(counter).toBe(2)
  })

  it("an authenticator that reports 0 is not written, with either adapter", async () => {
    for (const swap of [true, false]) {
      const { writes, counter } = await signInTwice(swap, new SoftAuthenticator({ counterStep: 0 }))
      expect(writes).toEqual([])
      expect(counter).toBe(0)
    }
  })

  it("a swap that does not answer true refuses the sign-in and records nothing", async () => {
    const { adapter, store } = counterAdapter({ swap: true })
    // An adapter that has not said it stored the count (here: it answers undefined).
    adapter.swapAuthenticatorCounter = async () => undefined as unknown as boolean
    const { config, errors } = passkeyConfig({ adapter })
    const browser = new PasskeyBrowser(config)
    expect((await browser.registerNew("user@example.com")).status).toBe(302)
    await browser.signOut()
    const recorded = store.verificationTokens.size
    await expectRefused(await browser.signInWithPasskey(), errors, /cloned authenticator/)
    expect(store.verificationTokens.size).toBe(recorded)
    expect(await browser.session()).toBeNull()
  })
})

describe("POST callback/<passkey>: bad requests", () => {
  it("answers 400 for a malformed body and keeps the challenge", async () => {
    const { browser, store } = await registeredUser()
    const { body } = await browser.options({ action: "authenticate" })
    const good = browser.authenticator.authenticate(body.options, { origin: browser.origin })
    const bad: [string, unknown][] = [
      ["sign-up", good],
      ["authenticate", "{not json"],
      ["authenticate", "[]"],
      ["authenticate", { ...good, type: "password" }],
      ["authenticate", { ...good, rawId: "other" }],
      ["authenticate", { ...good, id: "not base64url!" }],
      ["authenticate", { ...good, response: { clientDataJSON: good.response.clientDataJSON } }],
      ["register", good],
    ]
    for (const [action, data] of bad) {
      const response = await browser.callback(action, data)
      expect(response.status, `${action} ${JSON.stringify(data).slice(0, 40)}`).toBe(400)
      expect((await response.json()).error).toBe("InvalidRequest")
    }
    expect(store.verificationTokens.size).toBe(1)
    // The untouched challenge still works.
    expect((await browser.callback("authenticate", good)).headers.get("location")).toBe(
      "http://localhost:3000",
    )
  })

  it("accepts a JSON body with data as an object", async () => {
    const { browser } = await registeredUser()
    const { body } = await browser.options({ action: "authenticate" })
    const data = browser.authenticator.authenticate(body.options, { origin: browser.origin })
    const response = await browser.fetch("/auth/callback/passkey", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: browser.origin,
        "x-auth-return-redirect": "1",
      },
      body: JSON.stringify({ action: "authenticate", data, csrfToken: await browser.csrfToken() }),
    })
    expect(await response.json()).toEqual({ url: "http://localhost:3000" })
  })

  it("needs the CSRF token and POST", async () => {
    const { browser, store } = await registeredUser()
    const { body } = await browser.options({ action: "authenticate" })
    const data = browser.authenticator.authenticate(body.options, { origin: browser.origin })
    const response = await browser.callback("authenticate", data, { csrfToken: "f".repeat(64) })
    expect(response.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=Signin")
    expect(store.verificationTokens.size).toBe(1)
    expect((await browser.fetch("/auth/callback/passkey")).status).toBe(405)
  })
})

describe("passkey callback: client data that is JSON but not an object", () => {
  for (const clientData of ["null", "1", '"x"', "[]"]) {
    test(`clientDataJSON ${clientData} is a refused passkey (error=Callback), not a server error`, async () => {
      const { config, errors } = passkeyConfig()
      const browser = new PasskeyBrowser(config)
      await browser.registerNew("ada@example.com")
      await browser.signOut()
      const { body } = await browser.options({ action: "authenticate" })
      const good = browser.authenticator.authenticate(body.options, {
        origin: browser.origin,
      }) as any
      const bad = {
        ...good,
        response: {
          ...good.response,
          clientDataJSON: Buffer.from(clientData).toString("base64url"),
        },
      }
      const response = await browser.callback("authenticate", bad)
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`${browser.origin}/auth/signin?error=Callback`)
      expect(errors.map((e) => e.type)).not.toContain(undefined)
    })
  }
})
