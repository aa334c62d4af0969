/**
 * An app moving from Auth.js with JWT sessions and an adapter that keeps
 * session records: its users stay signed in (the Auth.js cookie is adopted),
 * and the adopted session gets a record, so it is listed and can be revoked
 * like any other. Without a record it would be a JWT session nothing could
 * end, which Tessera does not accept once records are kept.
 */
import { readFileSync } from "node:fs"
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { decode } from "@tessera/core/jwt"
import { listSessions, revokeUserSessions } from "@tessera/core/sessions"
import { MemoryAdapter } from "@tessera/testing"
import { Jar, get, makeConfig, sessionCookieName } from "../harness/index.js"

/** Made with @auth/core (see authjs-cookies.test.ts); `sub` is "user-ada". */
const fixtures = JSON.parse(
  readFileSync(new URL("../fixtures/authjs-session-tokens.json", import.meta.url), "utf8"),
) as Record<"secret" | "plain", string>

async function readSession(config: AuthConfig, jar: Jar) {
  const response = await Auth(get("/auth/session", { jar }), config)
  jar.update(response)
  return (await response.json()) as { user?: { email?: string } } | null
}

async function sidOf(jar: Jar) {
  const token = await decode({
    token: jar.get(sessionCookieName())!,
    secret: fixtures.secret,
    salt: sessionCookieName(),
  })
  return token?.sid
}

function configWith(storeAda: boolean) {
  const adapter = MemoryAdapter()
  if (storeAda) {
    adapter.store.users.set("user-ada", {
      id: "user-ada",
      name: "Ada Lovelace",
      email: "ada@example.com",
      emailVerified: null,
      image: null,
    })
  }
  return makeConfig({
    secret: fixtures.secret,
    adapter,
    // Every check asks the record: a revoked session ends on its next request.
    session: { strategy: "jwt", revalidateAge: 0 },
  }).config
}

describe("an Auth.js JWT session adopted with session records", () => {
  test("stays signed in, with a record: listed, and revocable", async () => {
    const config = configWith(true)
    const jar = new Jar({ "authjs.session-token": fixtures.plain })
    expect((await readSession(config, jar))?.user?.email).toBe("ada@example.com")
    const sessions = await listSessions(config, "user-ada")
    expect(sessions).toHaveLength(1)
    expect(await sidOf(jar)).toBe(sessions[0]!.id)
    // Still signed in on the next request, from Tessera's cookie alone.
    expect([...jar.keys()]).toEqual([sessionCookieName()])
    expect((await readSession(config, jar))?.user?.email).toBe("ada@example.com")

    expect(await revokeUserSessions(config, "user-ada")).toBe(1)
    expect(await readSession(config, jar)).toBeNull()
  })

  test("a user the adapter does not store (authorize's) stays signed in without a record", async () => {
    const config = configWith(false)
    const jar = new Jar({ "authjs.session-token": fixtures.plain })
    expect((await readSession(config, jar))?.user?.email).toBe("ada@example.com")
    expect(await sidOf(jar)).toBeNull()
    expect(await listSessions(config, "user-ada")).toEqual([])
    expect((await readSession(config, jar))?.user?.email).toBe("ada@example.com")
  })
})
