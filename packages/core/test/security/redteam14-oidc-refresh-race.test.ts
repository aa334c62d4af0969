/**
 * A token refresh (`getAccessToken`) racing a new sign-in with the same provider account, against
 * the real oidc-provider, on SQLite and the memory adapter. The refresh spends the stored refresh
 * token; while the provider's answer is on its way, the user signs in again and the sign-in
 * stores a new grant's tokens. When the refresh then writes (clearing the tokens after an
 * `invalid_grant`, or storing what it got), it must not overwrite the tokens it did not start
 * from: a compare-and-set on the refresh token it spent. Otherwise a refused refresh wipes the
 * new sign-in's tokens (the user has to sign in yet again, and `getAccessToken` throws), and a
 * successful one puts the older grant's tokens back over the newer. The refused refresh then
 * answers with the sign-in's access token (the account has good tokens again), not an error.
 *
 * The interleaving is made certain by holding the real adapter's refresh write (the
 * `updateAccount` call made under the refresh lease) until the sign-in has stored its tokens.
 *
 * Before the fix both tests failed: the refused refresh left the account with no tokens, the
 * successful one left the old grant's refresh token.
 *
 * Red team 16 (carried over): that compare-and-set looked at the refresh token alone. A provider
 * that sends no refresh token at a sign-in after the first consent (Google), or the same one
 * again, leaves the stored refresh token as it was: the refresh's write still matched, and put
 * its access and ID Tokens (the older grant's scope, the older `auth_time`) over the sign-in's,
 * or a refused refresh wiped the sign-in's fresh access token. The write now also compares the
 * access token it set out from (every sign-in and refresh stores a new one: the account's
 * version). The "kept refresh token" tests failed before that fix, on every backend; PostgreSQL
 * was added to the backends then.
 */
import { afterEach, expect, test } from "vitest"
import { getAccessToken } from "@tessera/core"
import type { Adapter } from "@tessera/core/adapters"
import { RefreshTokenError } from "@tessera/core/errors"
import { completeOidcLogin } from "@tessera/testing"
import { memoryBackend, type Backend } from "../harness/backends.js"
import { oidcProviderAndDatabases } from "../harness/idp-databases.js"
import { Browser, ORIGIN } from "../harness/index.js"
import { signedInWithRefreshToken } from "../harness/offline-sign-in.js"

const setup = oidcProviderAndDatabases({
  redirectUris: [`${ORIGIN}/auth/callback/local`],
  // Inside the 60 s margin: every getAccessToken refreshes.
  accessTokenTtl: 30,
})

let backend: Backend | undefined
afterEach(() => backend?.close())

/** The real adapter, whose refresh writes (under a lease) wait until `release()`. */
function holdingRefreshWrites(adapter: Adapter) {
  let reached!: () => void
  const writeReached = new Promise<void>((resolve) => (reached = resolve))
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const held: Adapter = {
    ...adapter,
    async updateAccount(...args: Parameters<NonNullable<Adapter["updateAccount"]>>) {
      if (args[1] !== undefined) {
        reached()
        await released
      }
      return adapter.updateAccount!(...args)
    },
  }
  return { adapter: held, writeReached, release }
}

/**
 * The provider's answers: refresh grants refused with `invalid_grant` while `refusing`; with
 * `keepsRefreshToken`, a sign-in after the first brings no refresh token (as Google's), so the
 * account keeps the one it had.
 */
function provider(refusing: boolean, keepsRefreshToken: boolean) {
  let codeGrants = 0
  const fetchImpl: typeof fetch = async (input, init) => {
    const body = String(init?.body ?? "")
    if (refusing && body.includes("grant_type=refresh_token"))
      return Response.json({ error: "invalid_grant" }, { status: 400 })
    const response = await fetch(input, init)
    if (!keepsRefreshToken || !body.includes("grant_type=authorization_code")) return response
    if (++codeGrants === 1) return response
    const { refresh_token: _dropped, ...tokens } = (await response.json()) as Record<
      string,
      unknown
    >
    return Response.json(tokens, {
      status: response.status,
      headers: { "cache-control": "no-store" },
    })
  }
  return fetchImpl
}

const backends = [...setup.databases, ["memory", async () => memoryBackend()] as const]

async function race(make: () => Promise<Backend>, refusing: boolean, keepsRefreshToken = false) {
  backend = await make()
  const held = holdingRefreshWrites(backend.adapter)
  const signIn = await signedInWithRefreshToken(
    setup.idp,
    { ...backend, adapter: held.adapter },
    provider(refusing, keepsRefreshToken),
  )
  const { config, userId, account } = signIn
  const old = await account()

  const refresh = getAccessToken(config, { userId, provider: "local" }).catch((e: unknown) => e)
  await held.writeReached

  // Meanwhile the user signs in again, and the sign-in stores the new grant's tokens.
  const browser = new Browser(config)
  const start = await browser.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "ada" })
  expect((await browser.request(back.url.pathname + back.url.search)).status).toBe(302)
  const renewed = await account()
  expect(renewed.access_token).not.toBe(old.access_token)
  expect(renewed.refresh_token).toEqual(expect.any(String))
  if (keepsRefreshToken) expect(renewed.refresh_token).toBe(old.refresh_token)
  else expect(renewed.refresh_token).not.toBe(old.refresh_token)

  held.release()
  return { result: await refresh, renewed, account, config, userId }
}

test.each(backends)(
  "%s: a refused refresh does not clear the tokens a new sign-in stored meanwhile, and answers with them",
  async (_name, make) => {
    const { result, renewed, account } = await race(make, true)
    // The refresh token it spent is refused, but the account has good tokens again: the answer.
    expect(result).not.toBeInstanceOf(RefreshTokenError)
    expect(result).toMatchObject({ accessToken: renewed.access_token })
    const after = await account()
    expect({
      access: after.access_token,
      refresh: after.refresh_token,
      id: after.id_token,
    }).toEqual({
      access: renewed.access_token,
      refresh: renewed.refresh_token,
      id: renewed.id_token,
    })
  },
)

test.each(backends)(
  "%s: a successful refresh does not put the older grant's tokens over a new sign-in's",
  async (_name, make) => {
    const { result, renewed, account, config, userId } = await race(make, false)
    // The refresh's own access token is good, and returned.
    expect(result).toMatchObject({ accessToken: expect.any(String) })
    const after = await account()
    expect(after.refresh_token).toBe(renewed.refresh_token)
    expect(after.id_token).toBe(renewed.id_token)
    // The lease was released: the next call refreshes the new grant at once.
    const next = await getAccessToken(config, { userId, provider: "local" })
    expect(next.accessToken).toBe((await account()).access_token)
  },
)

test.each(backends)(
  "%s: a successful refresh does not put its tokens over a sign-in's that kept the refresh token",
  async (_name, make) => {
    const { result, renewed, account } = await race(make, false, true)
    expect(result).toMatchObject({ accessToken: expect.any(String) })
    const after = await account()
    expect({ access: after.access_token, id: after.id_token, expires: after.expires_at }).toEqual({
      access: renewed.access_token,
      id: renewed.id_token,
      expires: renewed.expires_at,
    })
  },
)

test.each(backends)(
  "%s: a refused refresh does not wipe a sign-in's tokens that kept the refresh token",
  async (_name, make) => {
    const { result, renewed, account } = await race(make, true, true)
    expect(result).not.toBeInstanceOf(RefreshTokenError)
    expect(result).toMatchObject({ accessToken: renewed.access_token })
    expect((await account()).access_token).toBe(renewed.access_token)
  },
)
