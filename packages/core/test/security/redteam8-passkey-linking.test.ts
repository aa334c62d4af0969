/**
 * Red team 8, chaining a passkey registration with a sign-in that happens in
 * the middle of it, in one browser (a shared computer): the registration's
 * challenge cookie lives 15 minutes. Started signed out (a new account for
 * the attacker's own address), finished after the victim signed in there: the
 * passkey must not land on the victim's account. Started by the victim, finished
 * after the browser changed hands: refused. (Safe when tested: pinned.) On
 * SQLite, in a real file, with database sessions.
 */
import { afterEach, beforeEach, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import Passkey from "@tessera/core/providers/passkey"
import { ADA, credentialsProvider, signIn } from "../harness/index.js"
import { sqliteBackend, type Backend } from "../harness/backends.js"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"

let backend: Backend
let config: AuthConfig
beforeEach(async () => {
  backend = await sqliteBackend()
  await backend.adapter.createUser!({
    ...ADA,
    id: ADA.id!,
    email: ADA.email!,
    emailVerified: new Date(),
    image: null,
  })
  ;({ config } = passkeyConfig({
    adapter: backend.adapter,
    providers: [Passkey(), credentialsProvider()],
  }))
})
afterEach(async () => {
  await backend.close()
})

/** Signs the victim in with her password in `browser`, keeping its other cookies. */
async function victimSignsIn(browser: PasskeyBrowser) {
  const { response } = await signIn(config, undefined, { jar: browser.jar })
  expect(response.status).toBe(302)
  expect((await browser.session())?.user?.email).toBe(ADA.email)
}

test("started signed out, finished after the victim signed in: the passkey is not hers", async () => {
  const browser = new PasskeyBrowser(config)
  const { body } = await browser.options({ email: "mallory@example.net" })
  expect(body.action).toBe("register")
  await victimSignsIn(browser)
  const answer = browser.authenticator.register(body.options, { origin: browser.origin })
  await browser.callback("register", answer)
  const accounts = await backend.accounts()
  const passkeys = accounts.filter((account) => account.provider === "passkey")
  expect(passkeys.map((account) => account.userId)).not.toContain(ADA.id)
  // Whatever the registration made, the browser is not signed in as the victim any more.
  expect((await browser.session())?.user?.email).not.toBe(ADA.email)
})

test("started by the victim, finished once another user holds the browser: refused", async () => {
  const browser = new PasskeyBrowser(config)
  await victimSignsIn(browser)
  const { body } = await browser.options()
  expect(body.action).toBe("register")
  // The victim signs out; someone else (here: a new passkey account) signs in.
  await browser.signOut()
  expect(await browser.session()).toBeNull()
  const answer = browser.authenticator.register(body.options, { origin: browser.origin })
  const response = await browser.callback("register", answer)
  expect(response.headers.get("location")).toContain("error=")
  expect((await backend.accounts()).filter((a) => a.provider === "passkey")).toEqual([])
})
