/**
 * Red team 14: a hook of the app's that runs before Tessera's and reads the
 * request body (a logging or inspection hook in `sequence(...)`) leaves
 * nothing for core to read. The auth routes answered that with a clean 400
 * (`Unreadable request body`), unless the client added a proxy header
 * (`X-Forwarded-Host`, `X-Forwarded-Proto`, `Forwarded`): the hook then
 * rebuilt the request without it around the spent body, which threw, and
 * SvelteKit turned the request into a 500 with an error logged, at the
 * client's will. Both now end in the same 400, nothing thrown, nothing
 * logged as an error.
 */
import type { Handle } from "@sveltejs/kit"
import { afterEach, beforeEach, expect, it } from "vitest"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { createEvent, runHandle } from "../helpers/kit.js"

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => setKitRuntime())

/** `sequence(readsBody, handle)`: the app's hook reads the form first. */
const afterBodyReader =
  (handle: Handle): Handle =>
  async ({ event, resolve }) => {
    await event.request.formData()
    return handle({ event, resolve })
  }

it.each([
  ["no proxy header", {}],
  ["X-Forwarded-Host", { "x-forwarded-host": "evil.example" }],
  ["X-Forwarded-Proto", { "x-forwarded-proto": "https" }],
  ["Forwarded", { forwarded: "host=evil.example" }],
])("%s: a body an earlier hook read is a 400 on the auth routes, not a 500", async (_, headers) => {
  const config = testConfig()
  const { handle } = SvelteKitAuth(config)
  const request = new Request(`${ORIGIN}/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...headers },
    body: new URLSearchParams({ username: "ada", password: "lovelace", csrfToken: "x" }),
  })
  const { response, resolved } = await runHandle(afterBodyReader(handle), createEvent(request))
  expect(resolved).toBe(false)
  expect(response.status).toBe(400)
  expect(await response.json()).toMatchObject({ error: "InvalidRequest" })
  expect(config.loggedErrors).toEqual([])
})
