/**
 * Red team 9: an OpenID provider ending every session of an account
 * (Back-Channel Logout with `sub` alone: the user was disabled at the
 * provider) right after a move from Auth.js with database sessions.
 *
 * `tessera migrate --from authjs` imports Auth.js's session rows, which never
 * said through which provider they were made: their records have no provider,
 * and the logout's filter (this provider, this account) missed them. The
 * disabled user stayed signed in on every device until those sessions
 * expired. Now such a logout also ends its user's sessions of unknown origin;
 * other users' imported sessions stay.
 *
 * On a real SQLite file, imported by the CLI; a real oidc-provider signs the
 * logout token.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { listSessions } from "@tessera/core/sessions"
import { SqlAdapter } from "@tessera/sql"
import { localOidcProvider, startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import { makeSeed } from "../authjs-fixtures.js"
import {
  browserWithCookie,
  importedSqlite,
  SESSION_COOKIE,
  tesseraConfig,
} from "../authjs-import-helpers.js"

const ORIGIN = "http://localhost:3000"
const LOGOUT_PATH = "/auth/backchannel-logout/local"

const dir = mkdtempSync(join(tmpdir(), "tessera-rt9-import-"))
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

test("a logout of all of an account's sessions ends its user's imported Auth.js sessions", async () => {
  const seed = makeSeed()
  const file = join(dir, "app.db")
  await importedSqlite(file, seed)

  const adapter = SqlAdapter.sqlite(file)
  try {
    const revoked: string[] = []
    const config = tesseraConfig(adapter, {
      providers: [localOidcProvider(idp, "local")],
      events: { sessionRevoked: ({ session }) => void revoked.push(session.id) },
    })
    const [[adaId, adaToken], [bobId, bobToken]] = Object.entries(seed.liveSessions) as [
      [string, string],
      [string, string],
    ]
    // The seed links Ada to this provider's account "ada" (she signed in through it under Auth.js).
    expect(
      await adapter.getUserByAccount({ provider: "local", providerAccountId: "ada" }),
    ).toMatchObject({ id: adaId })
    const ada = browserWithCookie(config, SESSION_COOKIE, adaToken)
    const bob = browserWithCookie(config, SESSION_COOKIE, bobToken)
    expect(await ada.session()).not.toBeNull()
    expect(await bob.session()).not.toBeNull()
    const [imported] = await listSessions(config, adaId)
    expect(imported?.provider).toBeNull()

    const response = await Auth(
      new Request(`${ORIGIN}${LOGOUT_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ logout_token: idp.logoutToken({ sub: "ada" }) }),
      }),
      config,
    )
    expect(response.status).toBe(200)

    expect(await ada.session()).toBeNull()
    expect(await listSessions(config, adaId)).toEqual([])
    expect(revoked).toEqual([imported!.id])
    // Another user's imported session stays.
    expect(await bob.session()).not.toBeNull()
    expect(await listSessions(config, bobId)).toHaveLength(1)
  } finally {
    await adapter.close?.()
  }
})
