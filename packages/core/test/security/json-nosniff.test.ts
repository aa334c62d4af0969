/**
 * Every JSON answer of the auth routes carries `X-Content-Type-Options: nosniff`, as the
 * built-in pages do. A JSON answer can echo what a client or a provider wrote (a display
 * name, a callback's answer, a refused `id`); without `nosniff`, a browser sent to the URL
 * by any site may sniff the body and render it as something it is not.
 *
 * Each answer is one an attacker (or the user's own browser) can ask for through `Auth()`:
 * session (anonymous, signed in, a string from the `session` callback, the update POST),
 * csrf, providers, the session-management routes (list, revoke, refused), a route refusal
 * (405, 404), an unreadable request, and a redirect answered as JSON.
 */
import { describe, expect, test } from "vitest"
import { Auth, raw, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryAdapter } from "@tessera/testing"
import { ADA, csrfToken, get, type Jar, makeConfig, post, signIn } from "../harness/index.js"

function databaseApp(): AuthConfig {
  const adapter = MemoryAdapter()
  adapter.store.users.set(ADA.id!, { ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: null })
  return makeConfig({
    adapter,
    session: { strategy: "database" },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username }) => (username === "ada" ? { ...ADA } : null),
      }),
    ],
  }).config
}

function expectNosniff(response: Response, where: string) {
  expect(response.headers.get("content-type"), where).toMatch(/^application\/json/)
  expect(response.headers.get("x-content-type-options"), where).toBe("nosniff")
}

describe("JSON answers carry X-Content-Type-Options: nosniff", () => {
  test("session, csrf, providers: anonymous and signed in (JWT)", async () => {
    const { config } = makeConfig()
    expectNosniff(await Auth(get("/auth/session"), config), "anonymous session")
    expectNosniff(await Auth(get("/auth/csrf"), config), "csrf")
    expectNosniff(await Auth(get("/auth/providers"), config), "providers")
    const { jar } = await signIn(config)
    // Twice: the second answer comes from the shared, cached header record.
    for (const round of [1, 2]) {
      expectNosniff(await Auth(get("/auth/session", { jar }), config), `session ${round}`)
    }
    const { token } = await csrfToken(config, jar)
    const update = await Auth(post("/auth/session", { csrfToken: token }, { jar }), config)
    expectNosniff(update, "session update")
  })

  test("a string from the session callback (its own Content-Type)", async () => {
    const { config } = makeConfig({
      callbacks: { session: ({ session }: any) => `<b>${session.user?.name}</b>` as any },
    })
    const { jar } = await signIn(config)
    expectNosniff(await Auth(get("/auth/session", { jar }), config), "string session")
  })

  test("session management: list, revoke, an unknown id, signed out", async () => {
    const config = databaseApp()
    expectNosniff(await Auth(get("/auth/sessions"), config), "sessions, signed out (401)")
    const { jar } = await signIn(config, { username: "ada", password: "x" })
    const list = await Auth(get("/auth/sessions", { jar }), config)
    expectNosniff(list, "sessions")
    const [own] = (await list.json()) as { id: string }[]
    const revoke = async (id: string, session: Jar) => {
      const { token } = await csrfToken(config, session)
      return Auth(post("/auth/sessions/revoke", { id, csrfToken: token }, { jar: session }), config)
    }
    const unknown = await revoke("0".repeat(32), jar)
    expect(unknown.status).toBe(404)
    expectNosniff(unknown, "revoke, unknown id")
    const bad = await revoke("\u00e9", jar)
    expect(bad.status).toBe(400)
    expectNosniff(bad, "revoke, malformed id")
    const done = await revoke(own!.id, jar)
    expect(done.status).toBe(200)
    expectNosniff(done, "revoke, own session (clears the cookie)")
  })

  test("refusals: an unknown provider, a wrong method, an unreadable body", async () => {
    const { config } = makeConfig()
    const unknown = await Auth(get("/auth/signin/nope"), config)
    expect(unknown.status).toBe(404)
    expectNosniff(unknown, "unknown provider")
    const wrongMethod = await Auth(
      new Request("http://localhost:3000/auth/session", { method: "DELETE" }),
      config,
    )
    expect(wrongMethod.status).toBe(405)
    expectNosniff(wrongMethod, "wrong method")
    const { jar, token } = await csrfToken(config)
    const unreadable = await Auth(
      new Request("http://localhost:3000/auth/session", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: jar.header() },
        body: `{"csrfToken":"${token}",`,
      }),
      config,
    )
    expect(unreadable.status).toBe(400)
    expectNosniff(unreadable, "unreadable body")
  })

  test("a redirect answered as JSON (X-Auth-Return-Redirect)", async () => {
    const { config } = makeConfig()
    const { jar, token } = await csrfToken(config)
    const response = await Auth(
      post(
        "/auth/signout",
        { csrfToken: token },
        { jar, headers: { "X-Auth-Return-Redirect": "1" } },
      ),
      config,
    )
    expect(response.status).toBe(200)
    expectNosniff(response, "redirect as JSON")
  })

  test("raw mode: the result an integration turns into a Response names nosniff too", async () => {
    const { config } = makeConfig()
    const { jar } = await signIn(config)
    const result = await Auth(get("/auth/session", { jar }), { ...config, raw })
    const headers = new Headers(result.headers as HeadersInit)
    expect(headers.get("content-type")).toMatch(/^application\/json/)
    expect(headers.get("x-content-type-options")).toBe("nosniff")
  })
})
