/**
 * Attack: TRACE, a method the Fetch API cannot carry, sent to
 * the auth routes. ExpressAuth builds a `Request` for core, which throws for
 * them: the request must still get the clean 405 every other method gets, not
 * a 500 whose page (Express's default handler) shows the stack.
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import { integrationConfig, sendRaw } from "@tessera/testing"
import { startApp } from "../harness.js"

let app: Awaited<ReturnType<typeof startApp>>
const errors: unknown[] = []
beforeAll(async () => {
  app = await startApp(() =>
    integrationConfig({ logger: { error: (e: unknown) => errors.push(e) } }),
  )
})
afterAll(() => app.stop())

test("TRACE on auth routes: 405 with Allow, as PUT gets; nothing logged as an error", async () => {
  for (const method of ["TRACE", "PUT"]) {
    for (const target of ["/auth/signin", "/auth/callback/credentials", "/auth/session"]) {
      const response = await sendRaw(app.origin, { method, target })
      expect(response.status, `${method} ${target}`).toBe(405)
      // The credentials callback answers POST only, and its `Allow` says so.
      expect(response.headers.allow).toBe(
        target === "/auth/callback/credentials" ? "POST" : "GET, POST",
      )
      expect(response.body).not.toContain("at ")
    }
  }
  expect(errors).toEqual([])
})

test("the rest of the app still sees TRACE on its own routes", async () => {
  expect((await sendRaw(app.origin, { method: "TRACE", target: "/elsewhere" })).status).toBe(404)
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
