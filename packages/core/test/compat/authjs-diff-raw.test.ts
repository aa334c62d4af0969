/**
 * Found by differential testing against `@auth/core` 0.41.3 (the same configuration and
 * requests sent to both libraries' `Auth()` with `raw`): in raw mode, Auth.js's internal result
 * for a JSON route (`csrf`, `providers`, `session`, GET and POST) names its body's type in
 * `headers` (`"Content-Type": "application/json"`), as the pages name `text/html`. An integration
 * that turns the result into a `Response` the way Auth.js's own `toResponse` does (serialise the
 * body as JSON when the headers say JSON, pass it as is otherwise) needs that header: Tessera's
 * raw results had none for JSON, so such an integration answered the body object as the text
 * `[object Object]`.
 */
import { describe, expect, test } from "vitest"
import { Auth, raw, type AuthConfig } from "@tessera/core"
import { csrfToken, get, makeConfig, post, signIn } from "../harness/index.js"

const rawConfig = (config: AuthConfig) => ({ ...config, raw }) as AuthConfig & { raw: typeof raw }

/** Auth.js's `toResponse` (lib/utils/web.ts), as an integration that copied it does it. */
function authjsStyleResponse(result: {
  status?: number
  headers?: HeadersInit
  body?: unknown
}): Response {
  const headers = new Headers(result.headers)
  let body = result.body
  if (headers.get("content-type") === "application/json") body = JSON.stringify(result.body)
  return new Response(body as BodyInit, { status: result.status ?? 200, headers })
}

describe("raw mode: JSON results say they are JSON (Auth.js's headers)", () => {
  test("csrf, providers, session (signed out and in) and a session update", async () => {
    const { config } = makeConfig()
    const { jar: signedIn } = await signIn(config)
    const { token, jar } = await csrfToken(config, signedIn)

    const results = {
      csrf: await Auth(get("/auth/csrf"), rawConfig(config)),
      providers: await Auth(get("/auth/providers"), rawConfig(config)),
      "session, signed out": await Auth(get("/auth/session"), rawConfig(config)),
      "session, signed in": await Auth(get("/auth/session", { jar: signedIn }), rawConfig(config)),
      "session update": await Auth(
        post("/auth/session", { csrfToken: token }, { jar }),
        rawConfig(config),
      ),
    }
    for (const [name, result] of Object.entries(results)) {
      expect(new Headers(result.headers).get("content-type"), name).toBe("application/json")
      const response = authjsStyleResponse(result)
      expect(await response.json(), name).toEqual(result.body)
    }
    expect(results.csrf.body).toEqual({ csrfToken: expect.any(String) })
    expect(results["session, signed out"].body).toBeNull()
    expect(results["session, signed in"].body).toMatchObject({ user: { name: "Ada Lovelace" } })
  })

  test("a page keeps its HTML type; a redirect gets no body type", async () => {
    const { config } = makeConfig()
    const page = await Auth(get("/auth/signin"), rawConfig(config))
    expect(new Headers(page.headers).get("content-type")).toMatch(/^text\/html/)
    const { token, jar } = await csrfToken(config)
    const out = await Auth(post("/auth/signout", { csrfToken: token }, { jar }), rawConfig(config))
    expect(out.redirect).toBeDefined()
    expect(new Headers(out.headers).get("content-type")).toBeNull()
  })

  test("without raw the Response is unchanged: one Content-Type, JSON", async () => {
    const { config } = makeConfig()
    const response = await Auth(get("/auth/providers"), config)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(await response.json()).toHaveProperty("credentials")
  })
})
