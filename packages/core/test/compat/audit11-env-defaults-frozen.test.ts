/**
 * `setEnvDefaults` on a frozen configuration. Issue 2 asks that it read the environment "without
 * mutating the caller's object"; Tessera fills an ordinary configuration in place, as Auth.js
 * does (apps call `setEnvDefaults(process.env, config)` and go on with `config`). A configuration
 * the app froze cannot be filled in place: it used to throw a TypeError ("object is not
 * extensible"). It now gets a filled copy, and the frozen object is left as it was.
 */
import { describe, expect, test } from "vitest"
import { Auth, setEnvDefaults, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import GitHub from "@tessera/core/providers/github"

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

const env = {
  AUTH_SECRET: "s".repeat(40),
  AUTH_URL: "https://app.example/auth",
  AUTH_GITHUB_ID: "github-id",
  AUTH_GITHUB_SECRET: "github-secret",
}

describe("setEnvDefaults with a frozen configuration", () => {
  test("returns a filled copy and leaves the frozen object unchanged", async () => {
    const config = deepFreeze<AuthConfig>({
      providers: [
        GitHub,
        Credentials({ credentials: { username: {} }, authorize: () => ({ id: "1" }) }),
      ],
    })
    const before = JSON.stringify(config)
    const filled = setEnvDefaults(env, config)
    expect(JSON.stringify(config)).toBe(before)
    expect(filled).not.toBe(config)
    // A list, as Auth.js makes it (AUTH_SECRET_1..3 would come first).
    expect(filled.secret).toEqual([env.AUTH_SECRET])
    expect(filled.url).toBe(env.AUTH_URL)
    // Called again (per request, as integrations do), it answers the same copy.
    expect(setEnvDefaults(env, config)).toBe(filled)

    const response = await Auth(new Request("https://app.example/auth/providers"), filled)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      github: { id: "github", callbackUrl: "https://app.example/auth/callback/github" },
    })
  })

  test("an ordinary configuration is still filled in place, as in Auth.js", () => {
    const config: AuthConfig = { providers: [] }
    expect(setEnvDefaults(env, config)).toBe(config)
    expect(config.secret).toEqual([env.AUTH_SECRET])
  })
})
