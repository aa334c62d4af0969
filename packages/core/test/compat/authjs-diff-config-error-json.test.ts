/**
 * Found by bench/compat-diff.mjs (Tessera against `@auth/core` 0.41.3 on the same requests): a
 * broken configuration (here no secret, or no trusted origin) answering a `fetch` client.
 * Auth.js answers every request but a GET of a page with 500 JSON `{ message }`; its clients
 * (`signIn`/`signOut` of `@auth/sveltekit/client`, `next-auth/react`) POST with
 * `X-Auth-Return-Redirect: 1` and read the answer with `res.json()`. Tessera answered those
 * POSTs with its HTML error page, which such a client cannot parse. A browser's own form POST
 * (no header) still gets the error page, a deliberate Tessera choice (docs/configuration.md).
 */
import { afterEach, describe, expect, test, vi } from "vitest"
import { Auth } from "@tessera/core"
import { makeConfig, post } from "../harness/index.js"

const MESSAGE =
  "There was a problem with the server configuration. Check the server logs for more information."
const returnRedirect = { "X-Auth-Return-Redirect": "1" }

afterEach(() => {
  vi.unstubAllEnvs()
})

describe.each([
  ["no secret", { secret: undefined }],
  ["no trusted origin", { trustHost: false }],
])("%s: a POST with X-Auth-Return-Redirect: 1 gets Auth.js's 500 JSON", (_name, overrides) => {
  test.each([
    ["/auth/callback/credentials", { username: "ada", password: "correct horse" }],
    ["/auth/signin/credentials", {}],
    ["/auth/signout", {}],
  ])("POST %s", async (path, fields) => {
    vi.stubEnv("AUTH_SECRET", "")
    vi.stubEnv("AUTH_URL", "")
    vi.stubEnv("AUTH_TRUST_HOST", "")
    const { config } = makeConfig(overrides)
    const response = await Auth(post(path, fields, { headers: returnRedirect }), config)
    expect(response.status).toBe(500)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(await response.json()).toEqual({ message: MESSAGE })
    expect(response.headers.getSetCookie()).toEqual([])
  })

  test("a form POST without the header still gets the error page", async () => {
    vi.stubEnv("AUTH_SECRET", "")
    vi.stubEnv("AUTH_URL", "")
    vi.stubEnv("AUTH_TRUST_HOST", "")
    const { config } = makeConfig(overrides)
    const response = await Auth(post("/auth/signout", {}), config)
    expect(response.status).toBe(500)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
  })
})
