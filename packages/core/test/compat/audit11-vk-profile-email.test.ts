/**
 * VK's profile carries the e-mail of the token response. `users.get` never returns an address:
 * VK sends it beside the access token. Auth.js's VK provider copies it onto the profile
 * (`profile.email`), so an app's own `profile(profile)` callback, written as Auth.js's docs show,
 * and the `jwt`/`signIn` callbacks' `profile` see it. Also as in Auth.js, `users.get` carries the
 * token as a bearer `Authorization` header (Tessera keeps it in the POST body as well, never in
 * the URL).
 */
import { describe, expect, test } from "vitest"
import { Auth, customFetch, type AuthConfig } from "@tessera/core"
import VK, { type VkProfile } from "@tessera/core/providers/vk"
import { SECRET } from "../harness/index.js"

const ORIGIN = "http://localhost:3000"

interface Seen {
  method: string
  url: URL
  authorization: string | null
  body: string
}

/** oauth.vk.com and api.vk.com as VK documents them, reached through `customFetch`. */
function fakeVk(seen: Seen[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    seen.push({
      method: request.method,
      url,
      authorization: request.headers.get("authorization"),
      body: await request.text(),
    })
    if (url.pathname === "/access_token")
      return Response.json({
        access_token: "vk1.a.token",
        expires_in: 86400,
        user_id: 1234567,
        email: "ivan@example.test",
      })
    if (url.pathname === "/method/users.get") {
      const user: VkProfile = {
        id: 1234567,
        first_name: "Ivan",
        last_name: "Petrov",
        can_access_closed: true,
        is_closed: false,
        photo_100: "https://vk.example/ivan_100.jpg",
      }
      return Response.json({ response: [user] })
    }
    return new Response("not found", { status: 404 })
  }
}

/** Signs in through VK with real Requests; answers the session. */
async function signIn(config: AuthConfig) {
  const cookies = new Map<string, string>()
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (cookies.size)
      headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "))
    const response = await Auth(new Request(new URL(path, ORIGIN), { ...init, headers }), config)
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";")
      const at = pair!.indexOf("=")
      if (/Max-Age=0/i.test(cookie)) cookies.delete(pair!.slice(0, at))
      else cookies.set(pair!.slice(0, at), pair!.slice(at + 1))
    }
    return response
  }
  const { csrfToken } = (await (await send("/auth/csrf")).json()) as { csrfToken: string }
  const start = await send("/auth/signin/vk", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken }),
  })
  expect(start.status).toBe(302)
  const state = new URL(start.headers.get("location")!).searchParams.get("state")!
  const callback = await send(`/auth/callback/vk?code=the-code&state=${encodeURIComponent(state)}`)
  expect(callback.status).toBe(302)
  expect(callback.headers.get("location")).toBe(`${ORIGIN}/`)
  return (await (await send("/auth/session")).json()) as { user?: Record<string, unknown> }
}

describe("VK: the token response's e-mail on the profile, as in Auth.js", () => {
  test("an app's own profile callback reads profile.email", async () => {
    const seen: Seen[] = []
    const emails: unknown[] = []
    const config: AuthConfig = {
      secret: SECRET,
      url: ORIGIN,
      providers: [
        VK({
          clientId: "vk-id",
          clientSecret: "vk-secret",
          [customFetch]: fakeVk(seen),
          profile(profile) {
            emails.push(profile.email)
            return { id: String(profile.id), name: profile.first_name, email: profile.email }
          },
        }),
      ],
    }
    const session = await signIn(config)
    expect(emails).toEqual(["ivan@example.test"])
    expect(session.user).toMatchObject({ name: "Ivan", email: "ivan@example.test" })
  })

  test("the jwt callback's profile has it; the default user too; users.get gets a bearer header", async () => {
    const seen: Seen[] = []
    const profiles: Record<string, unknown>[] = []
    const config: AuthConfig = {
      secret: SECRET,
      url: ORIGIN,
      providers: [
        VK({ clientId: "vk-id", clientSecret: "vk-secret", [customFetch]: fakeVk(seen) }),
      ],
      callbacks: {
        jwt({ token, profile }) {
          if (profile) profiles.push(profile)
          return token
        },
      },
    }
    const session = await signIn(config)
    expect(profiles).toHaveLength(1)
    expect(profiles[0]).toMatchObject({ id: 1234567, email: "ivan@example.test" })
    expect(session.user).toEqual({
      name: "Ivan Petrov",
      email: "ivan@example.test",
      image: "https://vk.example/ivan_100.jpg",
    })
    const usersGet = seen.find((request) => request.url.pathname === "/method/users.get")!
    expect(usersGet.authorization).toBe("Bearer vk1.a.token")
    expect(usersGet.url.searchParams.has("access_token")).toBe(false)
  })
})
