/**
 * The credentials lockout counts failures per identifier, taken from the
 * submitted fields before `authorize` runs. A JSON body can send the
 * identifier as something other than a string (`["ada"]`, `{}`), which no
 * identifier is: such a request must be refused before `authorize` sees it,
 * not pass uncounted to an `authorize` that turns it into "ada" (`String()`,
 * a template string, loose equality), guessing Ada's password past her lock.
 */
import { expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { csrfToken, makeConfig, post, setsSession } from "../harness/index.js"

let authorized = 0

/** An app whose `authorize` folds the username the way many do: `String(...)`, trimmed, lower-cased. */
function app(): AuthConfig {
  return makeConfig({
    providers: [
      Credentials({
        credentials: {
          username: { label: "Username" },
          password: { label: "Password", type: "password" },
        },
        authorize: (credentials) => {
          authorized++
          const username = String(credentials.username ?? "")
            .trim()
            .toLowerCase()
          return username === "ada" && credentials.password === "correct horse"
            ? { id: "ada", name: "Ada" }
            : null
        },
      }),
    ],
    rateLimit: { store: new MemoryRateLimitStore() },
  }).config
}

async function attempt(config: AuthConfig, username: unknown, password: string) {
  const { token, jar } = await csrfToken(config)
  return Auth(
    post(
      "/auth/callback/credentials",
      { username, password, csrfToken: token },
      { jar, json: true },
    ),
    config,
  )
}

test("an identifier that is not a string is refused before authorize, and does not slip past the lock", async () => {
  const config = app()
  for (let i = 0; i < 10; i++) await attempt(config, "ada", `guess ${i}`)
  // Locked: the right password as a string is refused.
  const locked = await attempt(config, "ada", "correct horse")
  expect(setsSession(locked)).toBe(false)
  authorized = 0
  for (const username of [["ada"], ["Ada "], { 0: "ada" }, true]) {
    const response = await attempt(config, username, "correct horse")
    expect(setsSession(response)).toBe(false)
    expect(response.status).toBe(400)
  }
  expect(authorized).toBe(0)
})

test('a number counts as its text: the lock on "12345" holds for 12345', async () => {
  const config = app()
  for (let i = 0; i < 10; i++) await attempt(config, "12345", `guess ${i}`)
  authorized = 0
  const response = await attempt(config, 12345, "correct horse")
  expect(setsSession(response)).toBe(false)
  expect(response.status).not.toBe(400)
  expect(authorized).toBe(0)
})
