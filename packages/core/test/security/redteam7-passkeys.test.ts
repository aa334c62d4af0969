/**
 * Red team, round 7: passkeys as an attacker drives them, through `Auth()` with
 * a software authenticator (real ES256 keys, real CBOR, real signatures):
 *
 * - a signed-in attacker registering a credential id that belongs to someone
 *   else: refused, the victim's passkey untouched, nothing linked;
 * - an assertion whose `userHandle` names another user: the credential's owner
 *   is signed in, never the user the handle names (the handle is not signed);
 * - one challenge cookie and answer sent twice at once: exactly one session;
 * - a cloned authenticator racing the original, both ahead of the stored
 *   counter: the stored counter used to end on the lower value (whichever
 *   write came last) with both signed in; now it never goes back, and the
 *   answer behind a concurrently stored higher count is refused (fixed);
 * - a registration challenge answered as an authentication, and the reverse;
 * - a spoofed `Host` / `X-Forwarded-Host` with a canonical URL: the rp id and
 *   origin stay the canonical ones, an answer made for the spoofed host fails;
 * - huge and malformed bodies: 4xx, nothing written.
 * All but the counter race held: the tests pin them.
 */
import { describe, expect, test } from "vitest"
import { SoftAuthenticator } from "@tessera/testing/webauthn-authenticator"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"

const HOME = "http://localhost:3000"
const REFUSED = "http://localhost:3000/auth/signin?error=Callback"

/** Two users with a passkey each (victim, attacker); both signed out. */
async function twoUsers(
  overrides: Parameters<typeof passkeyConfig>[0] = {},
  victimsAuthenticator?: SoftAuthenticator,
) {
  const setup = passkeyConfig(overrides)
  const victim = new PasskeyBrowser(setup.config, undefined, victimsAuthenticator)
  const attacker = new PasskeyBrowser(setup.config)
  expect((await victim.registerNew("victim@example.com")).status).toBe(302)
  expect((await attacker.registerNew("attacker@example.com")).status).toBe(302)
  await victim.signOut()
  await attacker.signOut()
  const idOf = (email: string) => [...setup.store.users.values()].find((u) => u.email === email)!.id
  return { ...setup, victim, attacker, victimId: idOf("victim@example.com"), idOf }
}

describe("red team 7: passkeys", () => {
  test("a signed-in attacker cannot register the victim's credential id onto their account", async () => {
    const { store, victim, attacker, victimId, errors } = await twoUsers()
    const [victimCredential] = victim.authenticator.credentials.values()
    expect((await attacker.signInWithPasskey()).headers.get("location")).toBe(HOME)
    const { body } = await attacker.options({ action: "register" })
    expect(body.action).toBe("register")
    // The attacker's authenticator answers with a credential whose id is the victim's
    // (a cloned authenticator, or a hand-made response with that id in its authenticator data).
    attacker.authenticator.credentials.set(victimCredential!.id, { ...victimCredential! })
    const forged = attacker.authenticator.register(body.options, {
      origin: attacker.origin,
      credentialId: victimCredential!.id,
    })
    const accountsBefore = store.accounts.size
    const response = await attacker.callback("register", forged)
    expect(response.headers.get("location")).toBe(REFUSED)
    expect(errors.at(-1)?.message).toMatch(/registered already/)
    expect(store.authenticators.get(victimCredential!.id)?.userId).toBe(victimId)
    expect(store.accounts.size).toBe(accountsBefore)
  })

  test("an assertion whose userHandle names another user signs in the credential's owner only", async () => {
    const { attacker, victimId, idOf } = await twoUsers()
    const { body } = await attacker.options({ action: "authenticate" })
    const assertion = attacker.authenticator.authenticate(body.options, { origin: attacker.origin })
    // The handle is not covered by the signature: the attacker may write anything there.
    assertion.response.userHandle = Buffer.from(victimId).toString("base64url")
    expect((await attacker.callback("authenticate", assertion)).headers.get("location")).toBe(HOME)
    const session = await attacker.session()
    expect(session.user.email).toBe("attacker@example.com")
    expect(idOf("attacker@example.com")).not.toBe(victimId)
  })

  test("one challenge and answer sent twice at once: exactly one sign-in", async () => {
    // An authenticator whose counter stays 0 (synced passkeys): only the challenge record stops a replay.
    const { victim, store } = await twoUsers({}, new SoftAuthenticator({ counterStep: 0 }))
    const { body } = await victim.options({ action: "authenticate" })
    const assertion = victim.authenticator.authenticate(body.options, { origin: victim.origin })
    const csrfToken = await victim.csrfToken()
    const sessionsBefore = store.sessions.size
    const responses = await Promise.all([
      victim.callback("authenticate", assertion, { csrfToken }),
      victim.callback("authenticate", assertion, { csrfToken }),
    ])
    const locations = responses.map((r) => r.headers.get("location")).sort()
    expect(locations).toEqual([HOME, REFUSED])
    expect(store.sessions.size).toBe(sessionsBefore + 1)
  })

  test("a cloned authenticator racing the original: the counter never goes back, the clone is refused", async () => {
    const { victim, store, errors } = await twoUsers()
    for (let i = 0; i < 4; i++) {
      await victim.signInWithPasskey()
      await victim.signOut()
    }
    const [credential] = victim.authenticator.credentials.values()
    const stored = store.authenticators.get(credential!.id)!.counter
    const clone = new PasskeyBrowser(victim.config, undefined, new SoftAuthenticator())
    clone.authenticator.credentials.set(credential!.id, { ...credential! })
    const original = await victim.options({ action: "authenticate" })
    const copied = await clone.options({ action: "authenticate" })
    // Both are ahead of the stored counter, so each passes the library's check alone.
    const ahead = victim.authenticator.authenticate(original.body.options, {
      origin: victim.origin,
      counter: stored + 5,
    })
    const behind = clone.authenticator.authenticate(copied.body.options, {
      origin: clone.origin,
      counter: stored + 2,
    })
    const [victimToken, cloneToken] = [await victim.csrfToken(), await clone.csrfToken()]
    const [first, second] = await Promise.all([
      victim.callback("authenticate", ahead, { csrfToken: victimToken }),
      clone.callback("authenticate", behind, { csrfToken: cloneToken }),
    ])
    // The stored counter never goes back, whichever answer is stored first.
    expect(store.authenticators.get(credential!.id)!.counter).toBe(stored + 5)
    expect(first.headers.get("location")).toBe(HOME)
    if (second.headers.get("location") === HOME) {
      // On a loaded machine the clone's answer can be checked and stored before the original's
      // is checked at all: then each was ahead of the count it was checked against, as with
      // one authenticator used twice, and nothing tells the two apart. Only the interleaving
      // below is a race the library can see; it must end in the refusal.
      expect(errors.some((e) => /counter went backwards/.test(e.message))).toBe(false)
      return
    }
    expect(second.headers.get("location")).toBe(REFUSED)
    expect(errors.at(-1)?.message).toMatch(/counter went backwards/)
    expect(await clone.session()).toBeNull()
  })

  test("a registration challenge cannot be answered as a sign-in, nor the reverse", async () => {
    const { victim, errors, store } = await twoUsers()
    const register = await victim.options({ email: "new@example.com" })
    const signIn = victim.authenticator.authenticate(
      { rpId: register.body.options.rp.id, challenge: register.body.options.challenge },
      { origin: victim.origin },
    )
    expect((await victim.callback("authenticate", signIn)).headers.get("location")).toBe(REFUSED)
    expect(errors.at(-1)?.message).toMatch(/issued to register, not to authenticate/)

    const auth = await victim.options({ action: "authenticate" })
    const created = new SoftAuthenticator().register(
      { ...auth.body.options, rp: { id: auth.body.options.rpId }, user: { id: "eA" } },
      { origin: victim.origin },
    )
    expect((await victim.callback("register", created)).headers.get("location")).toBe(REFUSED)
    expect(errors.at(-1)?.message).toMatch(/issued to authenticate, not to register/)
    expect(store.users.size).toBe(2)
    expect(await victim.session()).toBeNull()
  })

  test("a spoofed Host or X-Forwarded-Host does not move the rp id or the accepted origin", async () => {
    const { config, store, errors } = passkeyConfig({ url: HOME })
    const browser = new PasskeyBrowser(config)
    expect((await browser.registerNew("ada@example.com")).status).toBe(302)
    await browser.signOut()

    for (const headers of [{ host: "evil.example" }, { "x-forwarded-host": "evil.example" }]) {
      const response = await browser.fetch("/auth/webauthn-options/passkey?action=authenticate", {
        headers,
      })
      const { options } = await response.json()
      expect(options.rpId).toBe("localhost")
    }
    // An answer the attacker's page got for its own rp id and origin is refused.
    const { body } = await browser.options({ action: "authenticate" })
    for (const overrides of [
      { origin: "http://evil.example" },
      { origin: HOME, rpId: "evil.example" },
    ]) {
      browser.jar.delete("tessera.challenge")
      const again = await browser.options({ action: "authenticate" })
      const assertion = browser.authenticator.authenticate(again.body.options, overrides)
      const response = await browser.callback(
        "authenticate",
        assertion,
        {},
        {
          "x-forwarded-host": "evil.example",
        },
      )
      expect(response.headers.get("location")).toBe(REFUSED)
    }
    expect(errors.map((e) => e.type)).toEqual([
      "WebAuthnVerificationError",
      "WebAuthnVerificationError",
    ])
    expect(store.sessions.size).toBe(0)
    void body
  })

  test("huge and malformed bodies are 4xx and write nothing", async () => {
    const { victim, store } = await twoUsers()
    const { body } = await victim.options({ action: "authenticate" })
    const good = victim.authenticator.authenticate(body.options, { origin: victim.origin })
    const rows = () => [store.users.size, store.accounts.size, store.verificationTokens.size]
    const before = rows()
    const csrfToken = await victim.csrfToken()
    const post = (init: { type: string; body: string }) =>
      victim.fetch("/auth/callback/passkey", {
        method: "POST",
        headers: { "content-type": init.type, origin: victim.origin },
        body: init.body,
      })
    const huge = "A".repeat(200_000)
    const cases: { type: string; body: string }[] = [
      {
        type: "application/json",
        body: JSON.stringify({ action: "authenticate", csrfToken, data: { ...good, id: huge } }),
      },
      {
        type: "application/x-www-form-urlencoded",
        body: new URLSearchParams({ action: "authenticate", csrfToken, data: huge }).toString(),
      },
      { type: "application/json", body: `{"action":"authenticate","csrfToken":"${csrfToken}",` },
      { type: "application/json", body: "[".repeat(50_000) + "]".repeat(50_000) },
      {
        type: "application/json",
        body: JSON.stringify({
          action: "authenticate",
          csrfToken,
          data: { ...good, response: { ...good.response, clientDataJSON: "x".repeat(60_000) } },
        }),
      },
      {
        type: "application/json",
        body: JSON.stringify({ action: "authenticate", csrfToken, data: { __proto__: good } }),
      },
    ]
    for (const c of cases) {
      const response = await post(c)
      expect(response.status, c.body.slice(0, 60)).toBeGreaterThanOrEqual(300)
      expect(response.status, c.body.slice(0, 60)).toBeLessThan(500)
      expect(response.headers.getSetCookie().some((s) => s.includes("session-token=e"))).toBe(false)
    }
    expect(rows()).toEqual(before)
    expect(await victim.session()).toBeNull()
  })
})
