/**
 * Red team 7: a provider's token lifetime is data from another server. One
 * answering `expires_in: 1e300` (a bug, or a hostile provider) made the
 * account's `expires_at` a number no 64-bit column holds: on PostgreSQL the
 * sign-in failed (AdapterError) for every user of that provider. A lifetime
 * beyond any real token's is read as no expiry at all; a real one is kept.
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import { customFetch, type AuthConfig } from "@tessera/core"
import Todoist from "@tessera/core/providers/todoist"
import { Browser, SECRET } from "../harness/index.js"
import { PostgresFixture } from "../harness/backends.js"
import { json, StandIn } from "../harness/stand-in.js"

let standIn: StandIn
const postgres = new PostgresFixture()
beforeAll(async () => {
  standIn = await StandIn.start()
  await postgres.start()
})
afterAll(async () => {
  await standIn?.stop()
  await postgres.stop()
})

/** Signs Ada in through Todoist, whose token endpoint answers `expires_in`; the stored account's `expires_at`. */
async function signInWithLifetime(expiresIn: number) {
  const backend = await postgres.backend()
  try {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: backend.adapter,
      providers: [
        Todoist({ clientId: "client-1", clientSecret: "secret-1", [customFetch]: standIn.fetch }),
      ],
    }
    standIn.on("POST", "https://todoist.com/oauth/access_token", () =>
      json({ access_token: "at-todoist", token_type: "bearer", expires_in: expiresIn }),
    )
    standIn.on("GET", "https://api.todoist.com/api/v1/user", () =>
      json({ id: "42", full_name: "Ada Lovelace", email: "ada@example.com" }),
    )
    const browser = new Browser(config)
    const start = await browser.startSignIn("todoist")
    const state = new URL(start.headers.get("location")!).searchParams.get("state")!
    const done = await browser.request(`/auth/callback/todoist?code=code-1&state=${state}`)
    const session = await browser.session()
    const { rows } = await postgres.admin!.query(
      `select expires_at from "${backend.schema}".accounts`,
    )
    return { done, session, rows }
  } finally {
    await backend.close()
  }
}

test("a token lifetime no database column holds signs the user in, with no expiry stored", async () => {
  const { done, session, rows } = await signInWithLifetime(1e300)
  expect(new URL(done.headers.get("location")!).pathname).toBe("/")
  expect(session?.user?.email).toBe("ada@example.com")
  expect(rows).toEqual([{ expires_at: null }])
})

test("a real token lifetime is kept as the account's expires_at", async () => {
  const before = Math.floor(Date.now() / 1000)
  const { rows } = await signInWithLifetime(3600)
  const expiresAt = Number(rows[0].expires_at)
  expect(expiresAt).toBeGreaterThanOrEqual(before + 3600)
  expect(expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600)
})
