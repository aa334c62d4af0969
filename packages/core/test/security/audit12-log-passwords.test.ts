/**
 * Logs and connection strings. An adapter's driver may quote its connection string in an
 * error ("connect ECONNREFUSED postgres://app:<password>@db/app"): `@tessera/sql` scrubs its
 * own errors, another adapter's reach `logger.error` as they are. The default logger prints
 * the error and its cause: the password must not reach the console. Failed before the fix:
 * the password was printed in the `[tessera][cause]` line.
 */
import { afterEach, expect, test, vi } from "vitest"
import { Auth } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryAdapter } from "@tessera/testing"

const PASSWORD = "s3cret-Pa55word"
const URL_IN_ERROR = `postgres://app:${PASSWORD}@db.internal:5432/app`

afterEach(() => vi.restoreAllMocks())

/** Every console line the default logger prints while `run` runs. */
async function printedWhile(run: () => Promise<void>): Promise<string> {
  const printed: string[] = []
  for (const level of ["error", "warn", "log", "debug", "info"] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      printed.push(args.map(String).join(" "))
    })
  await run()
  return printed.join("\n")
}

/** A database session check whose adapter fails with `message` (a server fault: 500). */
async function checkWithAdapterError(message: string): Promise<Response> {
  const adapter = {
    ...MemoryAdapter(),
    async getSessionAndUser(): Promise<never> {
      throw new Error(message)
    },
  }
  return Auth(
    new Request("http://localhost:3000/auth/session", {
      headers: { cookie: `tessera.session-token=${"a".repeat(64)}` },
    }),
    {
      secret: "s".repeat(40),
      url: "http://localhost:3000",
      adapter,
      session: { strategy: "database" },
      providers: [Credentials()],
    },
  )
}

// `pg` takes the password from a URL's query (over the userinfo's), and libpq's keyword form
// names it too; a driver that quotes its connection string quotes it there as well.
test.each([
  ["a URL's query", `postgres://app@db.internal/app?sslmode=require&password=${PASSWORD}`],
  ["a URL's query, first", `postgres://app@db.internal/app?password=${PASSWORD}#x`],
  ["the keyword form", `host=db.internal user=app password=${PASSWORD} dbname=app`],
  ["the keyword form, quoted", `host=db.internal password='${PASSWORD} x' dbname=app`],
  ["sslpassword", `postgres://app@db.internal/app?sslpassword=${PASSWORD}`],
])("a password in %s: the default logger masks it", async (_, connection) => {
  let response: Response | undefined
  const output = await printedWhile(async () => {
    response = await checkWithAdapterError(`connect ECONNREFUSED 10.0.0.5:5432 (${connection})`)
  })
  expect(response?.status).toBe(500)
  expect(output).toContain("[tessera][error]")
  expect(output).toContain("db.internal")
  expect(output).toContain("password=***")
  expect(output).not.toContain(PASSWORD)
})

test("an adapter error quoting its connection string: the default logger masks the password", async () => {
  let response: Response | undefined
  const output = await printedWhile(async () => {
    response = await checkWithAdapterError(`connect ECONNREFUSED 10.0.0.5:5432 (${URL_IN_ERROR})`)
  })
  // A server fault (the database is down), answered without its details.
  expect(response?.status).toBe(500)
  expect(await response?.text()).not.toContain(PASSWORD)
  expect(output).toContain("[tessera][error]")
  expect(output).toContain("postgres://app:***@db.internal:5432/app")
  expect(output).not.toContain(PASSWORD)
})
