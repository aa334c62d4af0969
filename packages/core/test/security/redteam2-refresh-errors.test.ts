/**
 * Attack surface: the error a failed token refresh hands the app (and, when
 * the app calls `getAccessToken` from a callback, Tessera's logger). A
 * provider whose refresh answer oauth4webapi refuses (here a `token_type` it
 * does not support; `expires_in` as a string does the same) has already
 * rotated the refresh token: oauth4webapi's error carries the whole answer,
 * new access and refresh tokens included, in its `cause`. Whatever the app
 * logs of the error (Node prints the cause chain), no token may be in it, as
 * for a failed callback, whose provider errors are summarised.
 *
 * Against the real oidc-provider (rotating refresh tokens, 30-second access
 * tokens so every call refreshes); only the refresh answer is changed on its
 * way back, as a misbehaving provider would send it.
 */
import { inspect } from "node:util"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { getAccessToken, refreshTokenSet } from "@tessera/core"
import { startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import { memoryBackend } from "../harness/backends.js"
import { signedInWithRefreshToken } from "../harness/offline-sign-in.js"

const ORIGIN = "http://localhost:3000"
let idp: OidcProviderServer
beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    accessTokenTtl: 30,
  })
}, 60_000)
afterAll(() => idp?.stop())

/** Passes every request to the provider; a refresh answer comes back with `token_type: "mac"`. */
function misbehaving() {
  const issued: string[] = []
  const fetchImpl: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    if (!String(init?.body ?? "").includes("grant_type=refresh_token") || !response.ok)
      return response
    const body = (await response.json()) as Record<string, string>
    issued.push(body.access_token!, body.refresh_token!)
    return Response.json({ ...body, token_type: "mac" })
  }
  return { issued, fetchImpl }
}

async function signedInApp() {
  const { issued, fetchImpl } = misbehaving()
  const signedIn = await signedInWithRefreshToken(idp, memoryBackend(), fetchImpl)
  return { ...signedIn, account: await signedIn.account(), issued }
}

/** Everything a logger that prints the error, causes and all, would write. */
const printed = (error: unknown) => inspect(error, { depth: Infinity })

describe("a refused refresh answer", () => {
  test("getAccessToken: the error the app gets holds none of the tokens the provider issued", async () => {
    const { config, userId, issued } = await signedInApp()
    const error = await getAccessToken(config, { userId, provider: "local" }).catch((e) => e)
    expect(error).toBeInstanceOf(Error)
    expect(issued).toHaveLength(2)
    for (const token of issued) expect(printed(error)).not.toContain(token)
  })

  test("refreshTokenSet: the same", async () => {
    const { config, account, issued } = await signedInApp()
    const error = await refreshTokenSet(config, {
      provider: "local",
      tokens: {
        access_token: account.access_token!,
        refresh_token: account.refresh_token!,
        expires_at: 0,
      },
    }).catch((e) => e)
    expect(error).toBeInstanceOf(Error)
    expect(issued).toHaveLength(2)
    for (const token of issued) expect(printed(error)).not.toContain(token)
    // Nor the refresh token it was given.
    expect(printed(error)).not.toContain(account.refresh_token!)
  })
})
