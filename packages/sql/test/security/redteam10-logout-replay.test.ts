/**
 * Red team 10: a back-channel logout token replayed at the very end of its
 * acceptance window, after `tessera purge` (or the adapter's own occasional
 * purge) cleared the expired verification tokens, on a SQLite file and a real
 * PostgreSQL.
 *
 * Found: a logout token without `exp` was accepted while its `iat` was at
 * most 600 s old give or take the 15 s clock tolerance, counted in whole
 * seconds (jose), i.e. until `iat + 616` s; its used `jti` was kept only until
 * `iat + 615` s. In the second between, a purge freed the `jti` and the same
 * token ended the account's sessions again: the sessions its user started
 * since the first logout. The `jti` is now kept past the last second a token
 * could pass. (Tokens without `exp` are refused since; one whose `exp` lies
 * past the `iat` bound has the same window, and one with a short `exp` passes
 * until `exp` + 14 s: both are replayed at their last second here.)
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { localOidcProvider, startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { postgresSchemas } from "../helpers.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "a-test-secret-that-is-long-enough-0123456789"
const LOGOUT_PATH = "/auth/backchannel-logout/local"
const dir = mkdtempSync(join(tmpdir(), "tessera-rt10-"))
const pgs = postgresSchemas("tessera_rt10")
let idp: OidcProviderServer

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    backchannelLogoutUri: `${ORIGIN}${LOGOUT_PATH}`,
  })
})
afterAll(async () => {
  await idp?.stop()
  rmSync(dir, { recursive: true, force: true })
})
afterEach(() => vi.useRealTimers())

const engines: [string, () => Promise<SqlAdapterInstance>][] = [
  ["SQLite", async () => SqlAdapter.sqlite(join(dir, "app.db"))],
  ["PostgreSQL", async () => SqlAdapter.postgres(pgs.poolConfig(await pgs.fresh("rt10")))],
]

/** The last whole second a token passes, and the second after it (jose counts whole seconds). */
const windows: [string, (iat: number) => number | undefined, (iat: number) => number][] = [
  // `exp` past the `iat` bound: 600 s + 15 s of `iat` decide.
  ["an exp an hour away", (iat) => iat + 3600, (iat) => iat + 615],
  // The provider's own `exp` (120 s) decides: jose refuses once `exp` <= now - 15 s.
  ["the provider's exp", () => undefined, (iat) => iat + 120 + 14],
]

describe.each(engines)("%s", (_name, open) => {
  test.each(windows)(
    "a logout token with %s, replayed in the last second it passes, after a purge: refused",
    async (_window, expOf, lastSecond) => {
      const adapter = await open()
      try {
        await adapter.migrate()
        const config: AuthConfig = {
          secret: SECRET,
          trustHost: true,
          adapter,
          providers: [localOidcProvider(idp, "local")],
        }
        const deliver = async (token: string) =>
          (
            await Auth(
              new Request(`${ORIGIN}${LOGOUT_PATH}`, {
                method: "POST",
                headers: { "content-type": "application/x-www-form-urlencoded" },
                body: new URLSearchParams({ logout_token: token }),
              }),
              config,
            )
          ).status

        vi.useFakeTimers({ toFake: ["Date"] })
        const iat = Math.floor(Date.now() / 1000)
        vi.setSystemTime(iat * 1000)
        const exp = expOf(iat)
        const token = idp.logoutToken(
          exp === undefined ? { sub: "ada", iat } : { sub: "ada", iat, exp },
        )
        expect(await deliver(token)).toBe(200)
        expect(await deliver(token)).toBe(400)

        // The last moment the token still passes.
        vi.setSystemTime(lastSecond(iat) * 1000 + 500)
        await adapter.purge()
        expect(await deliver(token)).toBe(400)

        // A second later it is too old anyway.
        vi.setSystemTime((lastSecond(iat) + 1) * 1000 + 500)
        await adapter.purge()
        expect(await deliver(token)).toBe(400)
      } finally {
        await adapter.close()
      }
    },
  )
})
