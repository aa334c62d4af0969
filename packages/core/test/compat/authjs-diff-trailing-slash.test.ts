/**
 * Found by bench/compat-diff.mjs (Tessera against `@auth/core` 0.41.3 on the same requests): a
 * trailing slash after the provider id. Auth.js splits `<basePath>/<action>/<provider>/` on `/`
 * and drops empty segments (lib/utils/web.ts, `parseActionAndProviderId`), so
 * `POST /auth/callback/credentials/` is the credentials callback and
 * `POST /auth/signin/github/` starts the GitHub sign-in. Tessera already took `/auth/session/`
 * that way; with a provider id it answered 404. A third segment stays unknown, as in Auth.js.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { ORIGIN, csrfToken, makeConfig, oauthProvider, post } from "../harness/index.js"

describe("a trailing slash after the provider id (Auth.js drops the empty segment)", () => {
  test("POST callback/credentials/ signs in like callback/credentials", async () => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post(
        "/auth/callback/credentials/",
        { username: "ada", password: "correct horse", csrfToken: token, callbackUrl: "/home" },
        { jar },
      ),
      config,
    )
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/home`)
    expect(response.headers.getSetCookie().join("\n")).toContain("tessera.session-token=")
  })

  test("POST signin/github/ starts the OAuth sign-in like signin/github", async () => {
    const { config } = makeConfig({ providers: [oauthProvider()] })
    const { token, jar } = await csrfToken(config)
    const response = await Auth(post("/auth/signin/github/", { csrfToken: token }, { jar }), config)
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(`${location.origin}${location.pathname}`).toBe("https://gh.example/authorize")
    expect(location.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/github`)
  })

  test("a further segment is still no route (Auth.js: UnknownAction)", async () => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    for (const path of ["/auth/callback/credentials/x", "/auth/signin/credentials/x"]) {
      const response = await Auth(post(path, { csrfToken: token }, { jar }), config)
      expect(response.status).toBe(404)
    }
  })
})
