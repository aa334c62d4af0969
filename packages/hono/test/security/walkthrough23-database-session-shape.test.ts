/**
 * Walkthrough 23: with database sessions and no `session` callback of the app's, `/auth/session`
 * (which any script of the page can read) and `authUser.session` are the default callback's
 * `{ user: { name, email, image }, expires }`, as through `Auth()` itself and in Auth.js.
 *
 * The integration wraps the `session` callback to note the stored user for `authUser.user`; its
 * wrapper returned core's raw `session` parameter when the app had no callback. With database
 * sessions that parameter is the stored session row (its hashed token, the session record's id,
 * the network prefix, the OpenID provider's session id) with the whole stored user: every column
 * an adapter keeps on the user (a password hash, a role) went to the browser's scripts.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { SqlAdapter } from "@tessera/sql"
import { cookieHeader, HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import { startApp } from "../harness.js"

const alice = { username: "alice", password: integrationUsers.alice.password }
const adapter = SqlAdapter.sqlite(":memory:")
beforeAll(() => adapter.migrate())
afterAll(() => adapter.close())

const running: { stop(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()))
})

const databaseConfig = (): AuthConfig =>
  integrationConfig({
    logger: { error: () => {} },
    adapter,
    session: { strategy: "database" },
  })

const defaultShape = {
  user: { name: "Alice", email: "alice@example.test", image: null },
  expires: expect.any(String),
}

test("/auth/session and authUser.session hold the default callback's fields only", async () => {
  const app = await startApp(databaseConfig, {
    after: (hono) => hono.get("/whoami-session", async (c) => c.json(c.get("authUser")?.session)),
  })
  running.push(app)
  const browser = new HttpBrowser(app.origin)
  await browser.signInWithCredentials(alice)

  const session = (await browser.session()) as unknown as Record<string, unknown>
  expect(session).toEqual(defaultShape)
  expect(session).not.toHaveProperty("sessionToken")
  expect(session).not.toHaveProperty("ipPrefix")

  // verifyAuth's authUser: the same session; the stored user stays on authUser.user, server side.
  const me = (await (await browser.request("/me")).json()) as Record<string, unknown>
  expect(me).toEqual(defaultShape)
})

test("the same answer as Auth() gives without the integration", async () => {
  const app = await startApp(databaseConfig)
  running.push(app)
  const browser = new HttpBrowser(app.origin)
  await browser.signInWithCredentials(alice)
  const viaHono = await browser.session()
  const direct = await Auth(
    new Request(`${app.origin}/auth/session`, { headers: { cookie: cookieHeader(browser.jar) } }),
    app.config,
  )
  expect(viaHono).toEqual(await direct.json())
})
