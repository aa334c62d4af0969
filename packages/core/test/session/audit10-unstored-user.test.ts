/**
 * Sessions of a user the adapter does not store. With JWT sessions, `authorize` owns its
 * users: a credentials user need not be a row of `users`. Issue 12 gives every sign-in a
 * record when an adapter is configured, so such a user's sessions are listed, revoked and
 * signed out everywhere like anyone's (`@tessera/sql` from migration 0005, which drops the
 * sessions' foreign key to `users`; the memory adapter). An adapter that refuses such a
 * record still signs the user in, without a record, and the operator is told once.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { listSessions, revokeUserSessions } from "@tessera/core/sessions"
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
    session: { strategy: "jwt", revalidateAge: 0 },
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
  test("the session is listed, as the current one", async () => {
    const config = configFor(await makeAdapter())
    const browser = await signedIn(config)
    const listed = await browser.request("/auth/sessions")
    expect(listed.status).toBe(200)
    const sessions = (await listed.json()) as Array<{ id: string; current: boolean }>
    expect(sessions).toHaveLength(1)
    expect(sessions[0]!.current).toBe(true)
    expect(await listSessions(config, ADA.id)).toHaveLength(1)
  })

  test("scope=others ends the other device only; scope=all ends both", async () => {
    const config = configFor(await makeAdapter())
    const laptop = await signedIn(config)
    const phone = await signedIn(config)
    const csrfToken = await laptop.csrf()
    const others = await laptop.request("/auth/signout", { body: { scope: "others", csrfToken } })
    expect(others.status).toBe(302)
    expect(await laptop.session()).not.toBeNull()
    expect(await phone.session()).toBeNull()
    const again = await laptop.request("/auth/signout", {
      body: { scope: "all", csrfToken: await laptop.csrf() },
    })
    expect(again.status).toBe(302)
    expect(await laptop.session()).toBeNull()
  })

  test("revokeUserSessions (after a password change) ends the session", async () => {
    const config = configFor(await makeAdapter())
    const browser = await signedIn(config)
    await expect(revokeUserSessions(config, ADA.id)).resolves.toBe(1)
    expect(await browser.session()).toBeNull()
  })

  test("no warning: the session has its record", async () => {
    const warnings: string[] = []
    const config = {
      ...configFor(await makeAdapter()),
      logger: { warn: (c: string) => void warnings.push(c) },
    }
    await signedIn(config as AuthConfig)
    expect(warnings).not.toContain("session-records-unstored-user")
  })
})

/** The memory adapter, made to keep records of its own users only (a foreign key, say). */
function refusingUnstored(): Adapter {
  const adapter = MemoryAdapter()
  return {
    ...adapter,
    async createSessionRecord(record) {
      if (!(await adapter.getUser!(record.userId))) throw new Error("FOREIGN KEY constraint failed")
      return adapter.createSessionRecord!(record)
    },
  }
}

describe("an adapter that refuses records of users it does not hold", () => {
  function recordingConfig(adapter: Adapter, authorize: () => typeof ADA) {
    const warnings: string[] = []
    const errors: Error[] = []
    const config: AuthConfig = {
      ...configFor(adapter),
      providers: [Credentials({ credentials: {}, authorize })],
      logger: { warn: (code) => void warnings.push(code), error: (e) => void errors.push(e) },
    }
    return { config, warnings, errors }
  }

  test("the user still signs in, without a record, and the operator is told once", async () => {
    const { config, warnings, errors } = recordingConfig(refusingUnstored(), () => ({ ...ADA }))
    await signedIn(config)
    await signedIn(config)
    expect(warnings.filter((code) => code === "session-records-unstored-user")).toHaveLength(1)
    expect(errors).toEqual([])
    await expect(revokeUserSessions(config, ADA.id)).resolves.toBe(0)
  })

  test.each(["all", "others"])("scope=%s signs out as usual, no error", async (scope) => {
    const { config, errors } = recordingConfig(refusingUnstored(), () => ({ ...ADA }))
    const browser = await signedIn(config)
    const csrfToken = await browser.csrf()
    const response = await browser.request("/auth/signout", { body: { scope, csrfToken } })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("http://localhost:3000")
    expect(await browser.session()).toEqual(scope === "all" ? null : expect.anything())
    expect(errors).toEqual([])
  })

  test("a stored user's record is kept, and nothing is warned", async () => {
    const adapter = refusingUnstored()
    const stored = await adapter.createUser!({ ...ADA, id: "ada-stored", emailVerified: null })
    const { config, warnings } = recordingConfig(adapter, () => ({ ...ADA, id: stored.id }))
    await signedIn(config)
    expect(warnings).not.toContain("session-records-unstored-user")
    expect(await listSessions(config, stored.id)).toHaveLength(1)
  })
})
