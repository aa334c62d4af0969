/**
 * `setEnvDefaults`: values missing from the configuration come from the
 * environment; the caller's object is never changed.
 */
import { describe, expect, test } from "vitest"
import { Auth, setEnvDefaults, type AuthConfig } from "@tessera/core"
import { encode } from "@tessera/core/jwt"
import {
  OTHER_SECRET,
  SECRET,
  credentialsProvider,
  get,
  makeConfig,
  recordingLogger,
  signIn,
} from "../harness/index.js"

const github = (options: Record<string, unknown> = {}) => ({
  id: "github",
  name: "GitHub",
  type: "oauth" as const,
  authorization: "https://gh.example/authorize",
  token: "https://gh.example/token",
  ...options,
})

/** A provider factory, like the built-in ones: options in, config out (with the options kept). */
function Keycloak(options: Record<string, unknown> = {}) {
  return {
    id: "my-idp",
    name: "Keycloak",
    type: "oidc" as const,
    issuer: "https://idp.example",
    ...options,
    options,
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as any)[key])
  }
  return value
}

describe("setEnvDefaults", () => {
  test("AUTH_SECRET becomes the secret", () => {
    const config = setEnvDefaults({ AUTH_SECRET: SECRET }, { providers: [] })
    expect(config.secret).toBe(SECRET)
  })

  test("AUTH_SECRET_1.._3 are added for rotation: AUTH_SECRET signs, all verify", () => {
    const config = setEnvDefaults(
      { AUTH_SECRET: SECRET, AUTH_SECRET_1: OTHER_SECRET, AUTH_SECRET_3: "third".repeat(8) },
      { providers: [] },
    )
    expect(config.secret).toEqual([SECRET, OTHER_SECRET, "third".repeat(8)])
  })

  test("a secret in the configuration wins over the environment", () => {
    expect(
      setEnvDefaults({ AUTH_SECRET: OTHER_SECRET }, { providers: [], secret: SECRET }).secret,
    ).toBe(SECRET)
  })

  test("rotation end to end: a session made under AUTH_SECRET_1 is still accepted, new cookies use AUTH_SECRET", async () => {
    const log = recordingLogger()
    const base: AuthConfig = { providers: [credentialsProvider()], logger: log.logger }
    const { jar } = await signIn(
      setEnvDefaults({ AUTH_SECRET: OTHER_SECRET, AUTH_TRUST_HOST: "true" }, base),
    )
    const rotated = setEnvDefaults(
      { AUTH_SECRET: SECRET, AUTH_SECRET_1: OTHER_SECRET, AUTH_TRUST_HOST: "true" },
      base,
    )
    const session = await Auth(get("/auth/session", { jar }), rotated)
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(
      "ada@example.com",
    )
    const onlyNew = setEnvDefaults({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true" }, base)
    expect(await (await Auth(get("/auth/session", { jar }), onlyNew)).json()).toBeNull()
    expect(log.errors.map((e) => (e as { type?: string }).type)).toEqual(["JWTSessionError"])
  })

  test("AUTH_URL sets the basePath from its path and trusts the host", () => {
    const config = setEnvDefaults({ AUTH_URL: "https://app.example/api/auth/" }, { providers: [] })
    expect(config.basePath).toBe("/api/auth")
    expect(config.trustHost).toBe(true)
    expect(
      setEnvDefaults({ AUTH_URL: "https://app.example" }, { providers: [] }).basePath,
    ).toBeUndefined()
    expect(
      setEnvDefaults({ AUTH_URL: "https://app.example/x" }, { providers: [], basePath: "/auth" })
        .basePath,
    ).toBe("/auth")
  })

  test.each([
    [{ AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, true],
    [{ AUTH_TRUST_HOST: "1", NODE_ENV: "production" }, true],
    [{ AUTH_TRUST_HOST: "false", NODE_ENV: "production" }, false],
    [{ AUTH_TRUST_HOST: "0" }, false],
    [{ NODE_ENV: "production" }, false],
    [{ NODE_ENV: "development" }, true],
    // No NODE_ENV (adapter-node never sets it) is not "development": hosts are not trusted.
    [{}, false],
    [{ NODE_ENV: "test" }, false],
  ])("trustHost from %j -> %s", (env, expected) => {
    expect(setEnvDefaults(env, { providers: [] }).trustHost).toBe(expected)
  })

  test("an explicit trustHost: false is kept", () => {
    expect(
      setEnvDefaults({ AUTH_TRUST_HOST: "true" }, { providers: [], trustHost: false }).trustHost,
    ).toBe(false)
  })

  test("AUTH_REDIRECT_PROXY_URL fills redirectProxyUrl unless set", () => {
    expect(
      setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://proxy.example/auth" }, { providers: [] })
        .redirectProxyUrl,
    ).toBe("https://proxy.example/auth")
    expect(
      setEnvDefaults(
        { AUTH_REDIRECT_PROXY_URL: "https://proxy.example/auth" },
        { providers: [], redirectProxyUrl: "https://mine.example" },
      ).redirectProxyUrl,
    ).toBe("https://mine.example")
  })

  test("AUTH_<PROVIDER>_ID/SECRET/ISSUER fill what a provider object lacks", () => {
    const env = {
      AUTH_GITHUB_ID: "env-id",
      AUTH_GITHUB_SECRET: "env-secret",
      AUTH_GITHUB_ISSUER: "https://env-issuer.example",
    }
    const [filled] = setEnvDefaults(env, { providers: [github()] }).providers as any[]
    expect(filled).toMatchObject({
      clientId: "env-id",
      clientSecret: "env-secret",
      issuer: "https://env-issuer.example",
    })
    const [kept] = setEnvDefaults(env, { providers: [github({ clientId: "mine" })] })
      .providers as any[]
    expect(kept.clientId).toBe("mine")
    expect(kept.clientSecret).toBe("env-secret")
  })

  test("a provider factory given bare is called with the values from the environment (ids with dashes use underscores)", () => {
    const env = { AUTH_MY_IDP_ID: "kc-id", AUTH_MY_IDP_SECRET: "kc-secret" }
    const [made] = setEnvDefaults(env, { providers: [Keycloak as any] }).providers as any[]
    expect(made).toMatchObject({ id: "my-idp", clientId: "kc-id", clientSecret: "kc-secret" })
  })

  test("never mutates the caller's configuration (deep-frozen input works and is unchanged)", () => {
    const input = deepFreeze({
      providers: [github()],
      theme: { colorScheme: "dark" as const },
    }) as AuthConfig
    const snapshot = JSON.stringify(input)
    const out = setEnvDefaults(
      {
        AUTH_SECRET: SECRET,
        AUTH_URL: "https://a.example/api/auth",
        AUTH_GITHUB_ID: "x",
        AUTH_REDIRECT_PROXY_URL: "https://p.example",
      },
      input,
    )
    expect(out).not.toBe(input)
    expect(JSON.stringify(input)).toBe(snapshot)
    expect(input.secret).toBeUndefined()
    expect(out.theme).toEqual({ colorScheme: "dark" })
  })

  test("the same environment gives back the same object, so the resolved configuration stays cached", async () => {
    let reads = 0
    const providers = [credentialsProvider()]
    const base = {
      logger: recordingLogger().logger,
      get providers() {
        reads++
        return providers
      },
    } as AuthConfig
    const env = { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true" }
    const first = setEnvDefaults(env, base)
    expect(setEnvDefaults({ ...env }, base)).toBe(first)
    const readsAfterDefaults = reads
    for (let i = 0; i < 5; i++) await Auth(get("/auth/session"), setEnvDefaults(env, base))
    // Neither setEnvDefaults (its env keys are listed once per config) nor resolution (cached on `first`) reads again.
    expect(reads - readsAfterDefaults).toBe(0)
    const changed = setEnvDefaults({ ...env, AUTH_SECRET: OTHER_SECRET }, base)
    expect(changed).not.toBe(first)
    expect(changed.secret).toBe(OTHER_SECRET)
  })

  test("a session cookie made with the environment's secret decodes through Auth()", async () => {
    const { config } = makeConfig({ secret: undefined })
    const withEnv = setEnvDefaults({ AUTH_SECRET: SECRET }, config)
    const token = await encode({
      token: { name: "Env", sub: "9" },
      secret: SECRET,
      salt: "tessera.session-token",
    })
    const response = await Auth(
      get("/auth/session", { headers: { cookie: `tessera.session-token=${token}` } }),
      withEnv,
    )
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe("Env")
  })
})
