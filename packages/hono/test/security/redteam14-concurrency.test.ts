/**
 * Red team 14 (holds): no cross-request state in `getAuthUser()`, whose reads
 * are kept per Hono context. Alice, Bulky (a session cookie in chunks) and
 * anonymous visitors hit a route of the app's that answers the session and
 * checks the JWT beside it is the same visitor's, all at once, each read
 * sliding the cookie. (The shared integration suite runs the same check on
 * `/me` and `/auth/session` for every integration.)
 */
import { afterEach, test } from "vitest"
import { integrationConfig } from "@tessera/testing"
import { expectOwnSessionsUnderLoad } from "@tessera/testing/suites"
import { getAuthUser } from "../../src/index.js"
import { startApp } from "../harness.js"

const running: { stop(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()))
})

test("concurrent getAuthUser() reads of two users and anonymous visitors each get only their own session, JWT and cookies", async () => {
  const app = await startApp(
    () => integrationConfig({ logger: { error: () => {} }, session: { updateAge: 0 } }),
    {
      after: (hono) =>
        hono.get("/who", async (c) => {
          const authUser = await getAuthUser(c)
          // The JWT noted beside the session must be the same visitor's.
          const name = authUser?.session.user?.name ?? null
          if (authUser && authUser.token?.name !== name) return c.json({ mismatch: true }, 500)
          return c.json(authUser ? { user: { name } } : null)
        }),
    },
  )
  running.push(app)
  await expectOwnSessionsUnderLoad(app.origin, ["/who"])
})
