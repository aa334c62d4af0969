/**
 * Logs and connection strings. An adapter's driver may quote its connection string in an
 * error ("connect ECONNREFUSED postgres://app:<password>@db/app"): `@tessera/sql` scrubs its
 * own errors, another adapter's reach `logger.error` as they are. The default logger prints
 * the error and its cause: the password must not reach the console. Failed before the fix:
 * the password was printed in the `[tessera][cause]` line.
 */
import { afterEach, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryAdapter } from "@tessera/testing"

const PASSWORD = "s3cret-Pa55word"
const URL_IN_ERROR = `postgres://app:${PASSWORD}@db.internal:5432/app`

afterEach(() => vi.restoreAllMocks())

test("an adapter error quoting its connection string: the default logger masks the password", async () => {
  const printed: string[] = []
  for (const level of ["error", "warn", "log", "debug", "info"] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      printed.push(args.map(String).join(" "))
    })
  const adapter = {
    ...MemoryAdapter(),
    async getSessionAndUser(): Promise<never> {
      throw new Error(`connect ECONNREFUSED 10.0.0.5:5432 (${URL_IN_ERROR})`)
    },
  }
  const config: AuthConfig = {
    secret: "s".repeat(40),
    url: "http://localhost:3000",
    adapter,
    session: { strategy: "database" },
    providers: [Credentials()],
  }
  const response = await Auth(
    new Request("http://localhost:3000/auth/session", {
      headers: { cookie: `tessera.session-token=${"a".repeat(64)}` },
    }),
    config,
  )
  // A server fault (the database is down), answered without its details.
  expect(response.status).toBe(500)
  expect(await response.text()).not.toContain(PASSWORD)
  const output = printed.join("\n")
  expect(output).toContain("[tessera][error]")
  expect(output).toContain("postgres://app:***@db.internal:5432/app")
  expect(output).not.toContain(PASSWORD)
})
