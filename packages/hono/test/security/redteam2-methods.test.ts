/**
 * Attack: TRACE, a method the Fetch API cannot carry, sent to the auth
 * routes. authHandler() builds a `Request` for core, which throws for it:
 * the request must still get the clean 405 every other method gets, not a 500
 * with a stack trace in the server's log for each request.
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import { integrationConfig, sendRaw } from "@tessera/testing"
import { startApp } from "../harness.js"

let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  app = await startApp(() => integrationConfig({}), {
    after: (hono) => hono.all("/elsewhere", (c) => c.text(c.req.method)),
  })
})
afterAll(() => app.stop())

test("TRACE on auth routes: 405 with Allow, as PUT gets", async () => {
  for (const method of ["TRACE", "PUT"]) {
    for (const target of ["/auth/signin", "/auth/callback/credentials", "/auth/session"]) {
      const response = await sendRaw(app.origin, { method, target })
      expect(response.status, `${method} ${target}`).toBe(405)
      // The credentials callback answers POST only, and its `Allow` says so.
      expect(response.headers.allow).toBe(
        target === "/auth/callback/credentials" ? "POST" : "GET, POST",
      )
    }
  }
})

test("the rest of the app still answers TRACE on its own routes", async () => {
  const response = await sendRaw(app.origin, { method: "TRACE", target: "/elsewhere" })
  expect(response.body).toBe("TRACE")
})

test("TRACE gets the route table's answer, as PUT does: the same status and Allow per route", async () => {
  for (const target of ["/auth/csrf", "/auth/two-factor/setup", "/auth/session", "/auth/signin"]) {
    const put = await sendRaw(app.origin, { method: "PUT", target })
    const trace = await sendRaw(app.origin, { method: "TRACE", target })
    expect(trace.status, target).toBe(put.status)
    expect(trace.headers.allow, target).toBe(put.headers.allow)
  }
  expect((await sendRaw(app.origin, { method: "TRACE", target: "/auth/csrf" })).headers.allow).toBe(
    "GET",
  )
})
