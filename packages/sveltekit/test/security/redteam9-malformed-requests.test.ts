/**
 * Red team 9: malformed requests through the SvelteKit integration, by the
 * thousand. The hook answers `/auth/*` and gives every page `locals.auth()`;
 * the `signIn`/`signOut` form actions read a form the browser (or anyone)
 * sends. Whatever arrives must end in a page, a redirect, a 4xx (an HTTP
 * error the app's `+error` page shows) or, from `signIn`, the sign-in's own
 * refusal (a client error the app's action turns into `fail(...)`); never a
 * 5xx, another exception (SvelteKit would answer 500), or a line in the
 * error log.
 *
 * Seeded, so a failure names a case that replays. Half the requests carry the
 * session of a signed-in user.
 */
import { isHttpError, isRedirect } from "@sveltejs/kit"
import { afterEach, beforeEach, expect, test } from "vitest"
import { isClientError } from "@tessera/core/errors"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { adapterWithAda, ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { createEvent, signInThroughHandle, type TestEvent } from "../helpers/kit.js"
import { pick, seededRandom } from "../../../core/test/harness/seeded.js"

const CASES = 1500

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => setKitRuntime())

const VALUES = [
  "",
  "ada",
  "lovelace",
  "mallory",
  "credentials",
  "two-factor",
  "nope",
  "__proto__",
  "constructor",
  "all",
  "others",
  "false",
  "%",
  "%E0%A4%A",
  "\u0000",
  "//evil.example/x",
  "https://evil.example/",
  "javascript:alert(1)",
  "/dashboard?x=%",
  "\\\\evil.example",
  "123456",
  "a".repeat(70_000),
]
const FIELDS = [
  "providerId",
  "redirectTo",
  "callbackUrl",
  "redirect",
  "scope",
  "username",
  "password",
  "code",
  "authorizationParams-prompt",
  "authorizationParams-",
  "csrfToken",
  "__proto__",
]
const PATHS = [
  "/",
  "/dashboard",
  "/auth/session",
  "/auth/csrf",
  "/auth/providers",
  "/auth/signin",
  "/auth/signin/credentials",
  "/auth/signout",
  "/auth/callback/credentials",
  "/auth/callback/two-factor",
  "/auth/sessions",
  "/auth/two-factor/setup",
  "/auth/%",
  "/auth//session",
]

function body(next: () => number): { headers: Record<string, string>; body?: BodyInit } {
  const fields: [string, string][] = []
  for (let i = Math.floor(next() * 5); i > 0; i--)
    fields.push([pick(next, FIELDS), pick(next, VALUES)])
  const kind = next()
  if (kind < 0.5) {
    return {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    }
  }
  if (kind < 0.75) {
    const form = new FormData()
    for (const [name, value] of fields) form.append(name, value)
    if (next() < 0.3) form.append(pick(next, FIELDS), new Blob(["x"]), "x.txt")
    return { headers: {}, body: form }
  }
  return {
    headers: {
      "content-type": pick(next, ["application/json", "text/plain", "multipart/form-data", ""]),
    },
    body: pick(next, ["{}", '{"providerId":', "%%%", "", "--x--"]),
  }
}

function request(next: () => number, session: string, method: string, path: string): Request {
  const { headers, body: payload } = method === "GET" ? { headers: {} } : body(next)
  const all = new Headers(headers)
  if (next() < 0.5) all.set("cookie", session)
  else if (next() < 0.2)
    all.set("cookie", `tessera.session-token=${pick(next, ["x", "ey.x", "%"])}`)
  if (next() < 0.8) all.set("origin", next() < 0.8 ? ORIGIN : "https://evil.example")
  if (next() < 0.3) all.set("sec-fetch-site", pick(next, ["same-origin", "cross-site", "none"]))
  if (next() < 0.1) all.set("referer", pick(next, [`${ORIGIN}/signin?redirectTo=%`, "::", ORIGIN]))
  return new Request(`${ORIGIN}${path}`, { method, headers: all, body: payload })
}

/**
 * Why an outcome is a failure, or `undefined` when it is one the contract allows: a redirect, a
 * 4xx, or (from `signIn`) the sign-in's own refusal, a client error the app's action catches to
 * answer `fail(...)` (`CredentialsSignin`, as in Auth.js).
 */
function failureOf(thrown: unknown): string | undefined {
  if (isRedirect(thrown) || isClientError(thrown)) return undefined
  if (isHttpError(thrown)) return thrown.status >= 500 ? `HTTP ${thrown.status}` : undefined
  return `threw ${(thrown as Error)?.name}: ${(thrown as Error)?.message}`
}

test(`${CASES} malformed requests through the hook and the form actions: never a 5xx, an exception or an error log line`, async () => {
  const config = testConfig({ adapter: adapterWithAda() })
  const { handle, signIn, signOut } = SvelteKitAuth(config)
  const session = (await signInThroughHandle(handle, ORIGIN)).header()
  expect(session).toContain("session-token")

  const next = seededRandom(0x5e17e)
  const failures: string[] = []
  for (let i = 0; i < CASES; i++) {
    const target = next()
    const errorsBefore = config.loggedErrors.length
    let described = ""
    try {
      if (target < 0.5) {
        const method = pick(next, ["GET", "GET", "POST", "PUT", "DELETE"])
        const path = pick(next, PATHS)
        described = `handle ${method} ${path}`
        const event = createEvent(request(next, session, method, path))
        const response = await handle({
          event,
          // The root layout of a signed-in app: every page reads the session.
          resolve: async (resolved: TestEvent) => {
            await resolved.locals.auth()
            return new Response("page")
          },
        } as never)
        await response.arrayBuffer()
        if (response.status >= 500) failures.push(`#${i} ${response.status}: ${described}`)
      } else {
        const action = target < 0.8 ? signIn : signOut
        const path = action === signIn ? "/signin" : "/signout"
        described = `action ${path}`
        await action(createEvent(request(next, session, "POST", path)) as never)
      }
    } catch (thrown) {
      const failure = failureOf(thrown)
      if (failure) failures.push(`#${i} ${failure}: ${described}`)
    }
    if (config.loggedErrors.length > errorsBefore)
      failures.push(`#${i} logged ${config.loggedErrors.at(-1)?.message}: ${described}`)
  }
  expect(failures).toEqual([])
})
