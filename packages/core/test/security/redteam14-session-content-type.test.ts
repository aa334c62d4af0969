/**
 * Red team, round 14: the `session` route answers JSON, whatever the app's
 * `session` callback returns. Auth.js serialises the callback's answer as
 * `application/json` (its `toResponse`); Tessera served a string answer as it
 * was, as `text/html` on the auth origin, with none of the built-in pages'
 * headers (no CSP): markup in the string (a display name, say) ran as a page
 * at `/auth/session`, a URL any site can send a victim to.
 */
import { describe, expect, test } from "vitest"
import { Auth, raw } from "@tessera/core"
import { csrfToken, get, makeConfig, post, signIn } from "../harness/index.js"

const MARKUP = `<script>alert(document.cookie)</script>`

/** An app whose `session` callback answers a string (its user's display name, say). */
function stringSessionConfig() {
  return makeConfig({
    callbacks: { session: ({ session }: any) => `${MARKUP}${session.user?.name}` as any },
  })
}

describe("a session callback that answers a string", () => {
  test("GET session: application/json, the string JSON-encoded, never HTML", async () => {
    const { config } = stringSessionConfig()
    const { jar } = await signIn(config)
    const response = await Auth(get("/auth/session", { jar }), config)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^application\/json/)
    expect(await response.json()).toBe(`${MARKUP}Ada Lovelace`)
  })

  test("POST session (update): application/json too", async () => {
    const { config } = stringSessionConfig()
    const { jar } = await signIn(config)
    const { token } = await csrfToken(config, jar)
    const response = await Auth(post("/auth/session", { csrfToken: token }, { jar }), config)
    expect(response.headers.get("content-type")).toMatch(/^application\/json/)
    expect(await response.json()).toBe(`${MARKUP}Ada Lovelace`)
  })

  test("raw mode: the result names JSON, so an integration serialises it as Auth.js's does", async () => {
    const { config } = stringSessionConfig()
    const { jar } = await signIn(config)
    const result = await Auth(get("/auth/session", { jar }), { ...config, raw })
    const type = new Headers(result.headers as HeadersInit).get("content-type")
    expect(type).toMatch(/^application\/json/)
    expect(result.body).toBe(`${MARKUP}Ada Lovelace`)
  })
})

test("an object session still answers as before", async () => {
  const { config } = makeConfig()
  const { jar } = await signIn(config)
  const response = await Auth(get("/auth/session", { jar }), config)
  expect(response.headers.get("content-type")).toMatch(/^application\/json/)
  expect((await response.json()).user.name).toBe("Ada Lovelace")
})
