/**
 * `@hono/auth-js` exports `setEnvDefaults(env, config)` (issue 14 asks for its surface): apps
 * that build their configuration from `c.env` call it to fill the secret and the providers'
 * credentials. An app importing it from `@tessera/hono` must find it, and what it fills must
 * serve the auth routes under the path `authHandler()` is registered at.
 */
import { Hono } from "hono"
import { expect, test } from "vitest"
import GitHub from "@tessera/core/providers/github"
import { authHandler, initAuthConfig, setEnvDefaults, type AuthConfig } from "@tessera/hono"

const SECRET = "hono-env-secret-0123456789abcdef-0123456789"

test("setEnvDefaults fills the secret and provider credentials from the environment", async () => {
  const config: AuthConfig = { providers: [GitHub], trustHost: true }
  const env = { AUTH_SECRET: SECRET, AUTH_GITHUB_ID: "gh-id", AUTH_GITHUB_SECRET: "gh-secret" }
  setEnvDefaults(env, config)
  expect(config.secret).toBe(SECRET)
  // No basePath is invented: the routes stay where authHandler() is registered.
  expect(config.basePath).toBeUndefined()

  const app = new Hono()
  app.use(
    "*",
    initAuthConfig(() => config),
  )
  app.use("/api/auth/*", authHandler())
  const providers = await app.request("http://localhost/api/auth/providers")
  expect(providers.status).toBe(200)
  expect(await providers.json()).toMatchObject({ github: { id: "github" } })
  const csrf = await app.request("http://localhost/api/auth/csrf")
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ")
  const signIn = await app.request("http://localhost/api/auth/signin/github", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ csrfToken }),
  })
  // To GitHub, with the client id from AUTH_GITHUB_ID.
  expect(signIn.status).toBe(302)
  const location = new URL(signIn.headers.get("location")!)
  expect(location.origin).toBe("https://github.com")
  expect(location.searchParams.get("client_id")).toBe("gh-id")
})
