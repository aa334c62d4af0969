/**
 * Token refresh (issue 12) against the real oidc-provider when its refresh answer carries no
 * `refresh_token` (providers that do not rotate, Google among them, leave it out): the stored
 * refresh token must stay, and still work, rather than be overwritten with nothing, which would
 * lose the account's access for good at the next expiry. Both `getAccessToken` (tokens on the
 * account, SQLite) and `refreshTokenSet` (tokens in the JWT).
 *
 * The provider does not rotate (`rotateRefreshTokens: false`); only the `refresh_token` member of
 * its refresh answers is taken out on the way back. Access tokens live 30 s, inside the 60 s
 * margin, so every call refreshes.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "vitest"
import { getAccessToken, refreshTokenSet } from "@tessera/core"
import { startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import { sqliteBackend, type Backend } from "../harness/backends.js"
import { ORIGIN } from "../harness/index.js"
import { signedInWithRefreshToken } from "../harness/offline-sign-in.js"

let idp: OidcProviderServer
beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    accessTokenTtl: 30,
    rotateRefreshTokens: false,
  })
}, 60_000)
afterAll(() => idp?.stop())

let backend: Backend | undefined
afterEach(() => backend?.close())

/** The provider's refresh answers, without `refresh_token`; counts them. */
function withoutRefreshToken() {
  const seen = { refreshes: 0 }
  const fetchImpl: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    if (!String(init?.body ?? "").includes("grant_type=refresh_token") || !response.ok)
      return response
    seen.refreshes++
    const { refresh_token: _left, ...body } = (await response.json()) as Record<string, unknown>
    return Response.json(body)
  }
  return { seen, fetchImpl }
}

async function signedIn() {
  backend = await sqliteBackend()
  const { seen, fetchImpl } = withoutRefreshToken()
  return { ...(await signedInWithRefreshToken(idp, backend, fetchImpl)), seen }
}

const works = async (accessToken: string) =>
  (await fetch(`${idp.issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } }))
    .status === 200

test("getAccessToken: the stored refresh token stays, and refreshes again", async () => {
  const { config, userId, account, seen } = await signedIn()
  const original = (await account()).refresh_token
  expect(original).toEqual(expect.any(String))

  const first = await getAccessToken(config, { userId, provider: "local" })
  expect(seen.refreshes).toBe(1)
  expect((await account()).refresh_token).toBe(original)
  expect(await works(first.accessToken)).toBe(true)

  // The kept token is the one the next refresh spends.
  const second = await getAccessToken(config, { userId, provider: "local" })
  expect(seen.refreshes).toBe(2)
  expect(second.accessToken).not.toBe(first.accessToken)
  expect(await works(second.accessToken)).toBe(true)
  expect((await account()).refresh_token).toBe(original)
})

test("refreshTokenSet: the token set keeps its refresh token", async () => {
  const { config, account, seen } = await signedIn()
  const stored = await account()
  const tokens = {
    access_token: stored.access_token!,
    refresh_token: stored.refresh_token!,
    expires_at: stored.expires_at!,
  }
  const refreshed = await refreshTokenSet(config, { provider: "local", tokens })
  expect(seen.refreshes).toBe(1)
  expect(refreshed.refresh_token).toBe(tokens.refresh_token)
  expect(await works(refreshed.access_token!)).toBe(true)
})
