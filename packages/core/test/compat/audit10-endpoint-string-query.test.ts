/**
 * A built-in provider's endpoint given as a URL string keeps that string's query. Auth.js
 * apps write `authorization: "https://discord.com/api/oauth2/authorize?scope=identify+guilds"`
 * (or a userinfo URL with its own `fields`): in Auth.js the string replaces the provider's
 * endpoint, so its query is what is sent. Tessera keeps the provider's own parameters, but a
 * parameter the app's URL names must be the app's, not the provider's default.
 */
import { describe, expect, test } from "vitest"
import { readForm } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import { Auth, type AuthConfig } from "@tessera/core"
import Facebook from "@tessera/core/providers/facebook"
import GitHub from "@tessera/core/providers/github"
import { SECRET } from "../harness/index.js"

const ORIGIN = "http://localhost:3000"

/** The authorization URL a POST to `/auth/signin/<id>` redirects to. */
async function authorizationUrl(config: AuthConfig, id: string): Promise<URL> {
  const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await Auth(
    new Request(`${ORIGIN}/auth/signin/${id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken }),
    }),
    config,
  )
  expect(response.status).toBe(302)
  return new URL(response.headers.get("location")!)
}

/** GitHub with its authorization endpoint given as a string. */
function githubWith(authorization: string): AuthConfig {
  return {
    secret: SECRET,
    url: ORIGIN,
    providers: [GitHub({ clientId: "id", clientSecret: "secret", authorization })],
  }
}

describe("an endpoint given as a URL string", () => {
  test("authorization: the string's scope is sent, not the provider's default", async () => {
    const config = githubWith("https://github.com/login/oauth/authorize?scope=read:user+repo")
    const url = await authorizationUrl(config, "github")
    expect(url.origin + url.pathname).toBe("https://github.com/login/oauth/authorize")
    expect(url.searchParams.getAll("scope")).toEqual(["read:user repo"])
  })

  test("authorization: a string without a query keeps the provider's parameters", async () => {
    const config = githubWith("https://ghe.example.com/login/oauth/authorize")
    const url = await authorizationUrl(config, "github")
    expect(url.origin + url.pathname).toBe("https://ghe.example.com/login/oauth/authorize")
    expect(url.searchParams.get("scope")).toBe("read:user user:email")
  })
})

const FIELDS = "id,name,email,picture,birthday"

const facebook = runProviderTests<{ sub: string; user: object; expect: any }>({
  provider: Facebook,
  options: { userinfo: `https://graph.facebook.com/me?fields=${FIELDS}` },
  authorization: {
    url: "https://www.facebook.com/dialog/oauth",
    scope: "email",
    checks: ["state"],
  },
  token: {
    url: "https://graph.facebook.com/oauth/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({ access_token: accessToken, token_type: "bearer" }),
  },
  resources: [{ url: "https://graph.facebook.com/me", response: ({ identity }) => identity.user }],
  identities: {
    verified: {
      sub: "ada",
      user: { id: "1", name: "Ada", email: "ada@fb.example", birthday: "12/10/1815" },
      expect: {
        user: { id: "1", name: "Ada", email: "ada@fb.example", image: null },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      user: { id: "2", name: "Bob" },
      expect: { user: { id: "2", name: "Bob", email: null, image: null }, verifiedEmail: null },
    },
  },
})

test("userinfo: the string's fields are asked for, not the provider's default", async () => {
  await facebook.signIn("ada")
  const request = facebook.standIn.requestsTo("https://graph.facebook.com/me").at(-1)!
  expect(request.url.searchParams.getAll("fields")).toEqual([FIELDS])
})

test("token: the string's query stays in its URL and adds nothing to the request body", async () => {
  await facebook.signIn("ada", {
    options: { token: "https://graph.facebook.com/oauth/access_token?api=v1" },
  })
  const request = facebook.standIn
    .requestsTo("https://graph.facebook.com/oauth/access_token")
    .at(-1)!
  expect(request.url.searchParams.get("api")).toBe("v1")
  const body = await readForm(request)
  expect(body.has("api")).toBe(false)
  expect(body.get("grant_type")).toBe("authorization_code")
})
