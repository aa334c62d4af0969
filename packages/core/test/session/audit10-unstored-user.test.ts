/**
 * "Sign out everywhere" for a user the adapter does not store. With JWT sessions,
 * `authorize` owns its users: a credentials user who is not in the database gets a
 * session without a record (docs/sessions.md), which nothing can list or revoke. Ending
 * "all" of such a user's sessions (`scope=all`, `scope=others`, `revokeUserSessions`,
 * the pattern the guide gives for a password change) must still work: sign this
 * browser out as usual, end nothing else, and not fail on the record of the Auth.js
 * cut-off mark, which the adapter refuses for a user it does not have.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { revokeUserSessions } from "@tessera/core/sessions"
import { SqlAdapter } from "@tessera/sql"
import { AppBrowser, MemoryAdapter } from "@tessera/testing"
import type { Adapter } from "@tessera/core/adapters"

const dir = mkdtempSync(join(tmpdir(), "tessera-audit10-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A credentials user that `authorize` vouches for and the database does not hold. */
const ADA = { id: "ada-1", name: "Ada", email: "ada@example.com" }

async function sqlite(): Promise<Adapter> {
  const adapter = SqlAdapter.sqlite(join(dir, `${crypto.randomUUID()}.db`))
  await adapter.migrate()
  return adapter
}

function configFor(adapter: Adapter): AuthConfig {
  return {
    secret: "s".repeat(40),
    url: "http://localhost:3000",
    adapter,
    session: { strategy: "jwt" },
    providers: [Credentials({ credentials: {}, authorize: () => ({ ...ADA }) })],
  }
}

async function signedIn(config: AuthConfig): Promise<AppBrowser> {
  const browser = new AppBrowser(config)
  const csrfToken = await browser.csrf()
  await browser.request("/auth/callback/credentials", { body: { csrfToken } })
  expect((await browser.session())?.user?.name).toBe("Ada")
  return browser
}

describe.each([
  ["memory", async () => MemoryAdapter()],
  ["sqlite", sqlite],
] as const)("a user the adapter does not store, on %s", (_name, makeAdapter) => {
  test.each(["all", "others"])("scope=%s signs out as usual, no error", async (scope) => {
    const config = configFor(await makeAdapter())
    const browser = await signedIn(config)
    const csrfToken = await browser.csrf()
    const response = await browser.request("/auth/signout", { body: { scope, csrfToken } })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("http://localhost:3000")
    expect(await browser.session()).toEqual(scope === "all" ? null : expect.anything())
  })

  test("revokeUserSessions ends nothing and does not throw", async () => {
    const config = configFor(await makeAdapter())
    await signedIn(config)
    await expect(revokeUserSessions(config, ADA.id)).resolves.toBe(0)
  })
})

describe("the operator learns that such sessions cannot be managed", () => {
  function recordingConfig(adapter: Adapter, authorize: () => typeof ADA) {
    const warnings: string[] = []
    const config: AuthConfig = {
      ...configFor(adapter),
      providers: [Credentials({ credentials: {}, authorize })],
      logger: { warn: (code) => void warnings.push(code) },
    }
    return { config, warnings }
  }

  test("a sign-in of a user the adapter does not store warns once per configuration", async () => {
    const { config, warnings } = recordingConfig(await sqlite(), () => ({ ...ADA }))
    await signedIn(config)
    await signedIn(config)
    expect(warnings.filter((code) => code === "session-records-unstored-user")).toHaveLength(1)
  })

  test("a stored user's sign-in does not warn", async () => {
    const adapter = await sqlite()
    const stored = await adapter.createUser!({ ...ADA, id: "", emailVerified: null })
    const { config, warnings } = recordingConfig(adapter, () => ({ ...ADA, id: stored.id }))
    await signedIn(config)
    expect(warnings).not.toContain("session-records-unstored-user")
  })
})
