/**
 * The recent-sign-in check and Auth.js session cookies. After a migration, a
 * browser's Auth.js cookie is adopted on its first request; a thief holding
 * one (copied before or after the switch) must not get past the check by
 * presenting it instead of Tessera's cookie:
 *
 * - the check must see the adopted session, not "no session" (the adoption
 *   ran after it, so the action found a session the check never saw);
 * - Auth.js re-issues its JWT on every session check with a new `iat`, so
 *   `iat` is the last activity, not the sign-in: an adopted session is not a
 *   recent sign-in, whatever its `iat` says.
 */
import { hkdfSync } from "node:crypto"
import { EncryptJWT, base64url, calculateJwkThumbprint } from "jose"
import { afterEach, describe, expect, test, vi } from "vitest"
import { MemoryAdapter } from "@tessera/testing"
import { Auth } from "@tessera/core"
import { ADA, csrfToken, Jar, makeConfig, post } from "../harness/index.js"
import { fakeClock, postForm } from "../two-factor/helpers.js"

const SALT = "authjs.session-token"

afterEach(() => {
  vi.useRealTimers()
})

/** An Auth.js v5 session token for `claims`, as `encode()` of @auth/core makes it. */
async function authjsToken(secret: string, claims: Record<string, unknown>) {
  const key = new Uint8Array(
    hkdfSync("sha256", secret, SALT, `Auth.js Generated Encryption Key (${SALT})`, 64),
  )
  const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha512")
  const now = Math.floor(Date.now() / 1000)
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", kid })
    .setIssuedAt(now)
    .setExpirationTime(now + 30 * 86_400)
    .setJti(crypto.randomUUID())
    .encrypt(key)
}

describe("an adopted Auth.js JWT session", () => {
  test("cannot set up a second factor, even with an iat of a minute ago", async () => {
    fakeClock()
    const adapter = MemoryAdapter()
    await adapter.createUser!({ ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: null })
    const { config } = makeConfig({ adapter, session: { strategy: "jwt" } })
    const stolen = await authjsToken(config.secret as string, {
      sub: ADA.id,
      email: ADA.email,
      name: ADA.name,
    })
    const thief = new Jar({ [SALT]: stolen })
    const setup = await postForm(config, thief, "/auth/two-factor/setup")
    expect(setup.status).toBe(403)
    expect(await setup.json()).toMatchObject({ error: "RecentSignInRequired" })
    expect(await adapter.getTwoFactor!(ADA.id!)).toBeNull()
  })

  test("presented first to the setup itself (adopted in that request), it is still checked", async () => {
    fakeClock()
    const adapter = MemoryAdapter()
    await adapter.createUser!({ ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: null })
    const { config } = makeConfig({ adapter, session: { strategy: "jwt" } })
    const { token, jar } = await csrfToken(config)
    jar.set(SALT, await authjsToken(config.secret as string, { sub: ADA.id, email: ADA.email }))
    const setup = await Auth(post("/auth/two-factor/setup", { csrfToken: token }, { jar }), config)
    expect(setup.status).toBe(403)
    expect(await adapter.getTwoFactor!(ADA.id!)).toBeNull()
  })
})
