/**
 * Red team 8, chaining Auth.js cookie adoption with the second factor. An app
 * moving from Auth.js keeps `AUTH_SECRET`, and often runs both for a while (a
 * part not moved yet still on Auth.js). Auth.js knows no second factor: whoever
 * has a user's password signs in there and gets an Auth.js cookie, which
 * Tessera adopted as a full session: the second factor the user turned on in
 * Tessera was skipped. An Auth.js cookie used after the user's second factor
 * was turned on is not adopted (they sign in to Tessera, code included); one
 * last used before, from before the move, still is, as the user's other
 * sessions from before the factor stay.
 *
 * And an adopted session is never a recent sign-in (its `iat` dates the last
 * use, not the sign-in): an app's `jwt` callback that rebuilds the token
 * (returning only the claims it knows) dropped that mark, and a stolen Auth.js
 * cookie could then set up a second factor only the thief holds.
 *
 * On SQLite, in a real file.
 */
import { afterEach, beforeEach, expect, test, vi } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { ADA, Jar, makeConfig, signIn } from "../harness/index.js"
import { sqliteBackend, type Backend } from "../harness/backends.js"
import { enableTwoFactor, fakeClock, postForm } from "../two-factor/helpers.js"
import { AUTHJS_COOKIE, authjsToken, sessionOf } from "./redteam8-helpers.js"

let backend: Backend
let config: AuthConfig
beforeEach(async () => {
  fakeClock()
  backend = await sqliteBackend()
  await backend.adapter.createUser!({
    ...ADA,
    id: ADA.id!,
    email: ADA.email!,
    emailVerified: null,
  })
  ;({ config } = makeConfig({ adapter: backend.adapter, session: { strategy: "jwt" } }))
})
afterEach(async () => {
  vi.useRealTimers()
  await backend.close()
})

/**
 * Ada turns on a second factor; an Auth.js cookie minted a minute later is no session, and
 * one last used an hour before still moves over.
 */
async function expectMintedAfterFactorRefused() {
  const beforeFactor = Math.floor(Date.now() / 1000) - 3600
  const { jar } = await signIn(config)
  await enableTwoFactor(config, jar)
  vi.setSystemTime(Date.now() + 60_000)

  // The attacker has the password, and signs in on the part still running Auth.js.
  const claims = { sub: ADA.id, email: ADA.email }
  const minted = await authjsToken(config.secret as string, claims)
  expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: minted }))).toBeNull()

  // A cookie from before the factor (another device, before the move) still moves over.
  const old = await authjsToken(config.secret as string, claims, beforeFactor)
  expect((await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: old })))?.user?.email).toBe(ADA.email)
}

test("an Auth.js cookie minted after the user turned on a second factor is no session", async () => {
  await expectMintedAfterFactorRefused()
})

test("a user without a second factor: an Auth.js cookie minted now still moves over", async () => {
  const claims = { sub: ADA.id, email: ADA.email }
  const minted = await authjsToken(config.secret as string, claims)
  expect((await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: minted })))?.user?.email).toBe(
    ADA.email,
  )
})

test("an app's jwt callback that rebuilds the token does not make an adopted session a recent sign-in", async () => {
  // A common shape: the callback returns the claims it knows, dropping the others.
  ;({ config } = makeConfig({
    adapter: backend.adapter,
    session: { strategy: "jwt" },
    callbacks: {
      jwt: ({ token }) => ({ sub: token.sub, name: token.name, email: token.email }),
    },
  }))
  // Stolen a minute after its owner last used it (Auth.js renewed `iat` then).
  const stolen = await authjsToken(
    config.secret as string,
    {
      sub: ADA.id,
      email: ADA.email,
    },
    Math.floor(Date.now() / 1000) - 60,
  )
  const thief = new Jar({ [AUTHJS_COOKIE]: stolen })
  expect((await sessionOf(config, thief))?.user?.email).toBe(ADA.email)
  expect((await sessionOf(config, thief))?.user?.email).toBe(ADA.email)
  const setup = await postForm(config, thief, "/auth/two-factor/setup")
  expect(setup.status).toBe(403)
  expect(await setup.json()).toMatchObject({ error: "RecentSignInRequired" })
  expect(await backend.adapter.getTwoFactor!(ADA.id!)).toBeNull()
})

test("the same with an adapter that keeps second factors but no session records", async () => {
  // An adapter of the app's own, say, with the second-factor methods but not the record ones.
  const {
    createSessionRecord: _create,
    touchSessionRecord: _touch,
    listSessionRecords: _list,
    deleteSessionRecords: _delete,
    ...withoutRecords
  } = backend.adapter
  ;({ config } = makeConfig({ adapter: withoutRecords, session: { strategy: "jwt" } }))
  await expectMintedAfterFactorRefused()
})
