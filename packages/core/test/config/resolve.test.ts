/**
 * Configuration: validated once per config object; a broken configuration is a
 * 500 that names nothing to the client, the cause going to `logger.error`.
 */
import { describe, expect, test, vi } from "vitest"
import { Auth, raw, skipCSRFCheck, type AuthConfig } from "@tessera/core"
import {
  ORIGIN,
  SECRET,
  credentialsProvider,
  get,
  makeConfig,
  post,
  recordingLogger,
  signIn,
} from "../harness/index.js"

type Case = [name: string, config: () => Partial<AuthConfig>, type: string, mentions: RegExp]

const broken: Case[] = [
  ["missing secret", () => ({ secret: undefined }), "MissingSecret", /secret/i],
  ["empty secret", () => ({ secret: "" }), "MissingSecret", /secret/i],
  ["empty secret list", () => ({ secret: [] }), "MissingSecret", /secret/i],
  ["secret of 31 characters", () => ({ secret: "x".repeat(31) }), "InvalidSecret", /32 characters/],
  [
    "a short secret in a list",
    () => ({ secret: [SECRET, "short"] }),
    "InvalidSecret",
    /Secret #2.*32 characters/,
  ],
  [
    "duplicate provider ids",
    () => ({ providers: [credentialsProvider(), credentialsProvider()] }),
    "DuplicateProviderId",
    /"credentials"/,
  ],
  [
    "credentials provider without authorize",
    () => ({
      providers: [{ id: "login", name: "Login", type: "credentials", credentials: {} } as any],
    }),
    "MissingAuthorize",
    /"login".*authorize/,
  ],
  [
    "a provider with an unknown type",
    () => ({ providers: [{ id: "x", name: "X", type: "magic" } as any] }),
    "InvalidProviderType",
    /"magic"/,
  ],
  [
    "a provider id unfit for a URL",
    () => ({ providers: [credentialsProvider({ id: "a/b" })] }),
    "InvalidProviderType",
    /valid id/,
  ],
  [
    "providers not an array",
    () => ({ providers: undefined as any }),
    "InvalidConfiguration",
    /providers/,
  ],
  [
    "database sessions without an adapter",
    () => ({ session: { strategy: "database" } }),
    "MissingAdapter",
    /adapter/,
  ],
]

describe("a broken configuration", () => {
  test.each(broken)(
    "%s: 500 JSON for API actions, logged with its type",
    async (_name, make, type, mentions) => {
      const { config, log } = makeConfig(make())
      const response = await Auth(get("/auth/session"), config)
      expect(response.status).toBe(500)
      expect(response.headers.get("content-type")).toBe("application/json")
      // Auth.js's body, word for word: nothing about the problem reaches the client.
      expect(await response.json()).toEqual({
        message:
          "There was a problem with the server configuration. Check the server logs for more information.",
      })
      expect(log.errors).toHaveLength(1)
      expect((log.errors[0] as { type?: string }).type).toBe(type)
      expect(log.errors[0]!.message).toMatch(mentions)
    },
  )

  test.each(broken)("%s: the error page for page actions", async (_name, make) => {
    const { config } = makeConfig(make())
    for (const path of ["/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request"]) {
      const response = await Auth(get(path), config)
      expect(response.status).toBe(500)
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
      const html = await response.text()
      expect(html).toContain("Server error")
      expect(html).toContain("problem with the server configuration")
    }
    const posted = await Auth(post("/auth/callback/credentials", { username: "ada" }), config)
    expect(posted.status).toBe(500)
    expect(posted.headers.getSetCookie()).toEqual([])
  })

  test("a basePath that is not a path: nothing routes, every request is a 500 and the cause is logged", async () => {
    const { config, log } = makeConfig({ basePath: "auth" })
    for (const path of ["/auth/session", "/auth/signin", "/auth"])
      expect((await Auth(get(path), config)).status).toBe(500)
    expect(log.errors[0]).toMatchObject({
      type: "InvalidConfiguration",
      message: expect.stringContaining("basePath"),
    })
  })

  test("no configuration object at all: a 500, not an exception", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {})
    for (const config of [undefined, null, "config"]) {
      const response = await Auth(get("/auth/session"), config as unknown as AuthConfig)
      expect(response.status).toBe(500)
    }
    expect(String(error.mock.calls[0]![0])).toContain("needs a configuration object")
    error.mockRestore()
  })

  test("the message a client sees never carries the secret or the cause", async () => {
    const short = "too-short-secret-value"
    const { config } = makeConfig({ secret: short })
    const text = await (await Auth(get("/auth/session"), config)).text()
    expect(text).not.toContain(short)
    const page = await (await Auth(get("/auth/signin"), config)).text()
    expect(page).not.toContain(short)
    expect(page).not.toMatch(/InvalidSecret|32 characters/)
  })

  test("a custom error page receives error=Configuration, in an absolute Location (the configured origin when there is one)", async () => {
    const { config } = makeConfig({ secret: undefined, pages: { error: "/oops" } })
    const response = await Auth(get("/auth/signin"), config)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/oops?error=Configuration`)
    expect((await Auth(get("/auth/session"), config)).status).toBe(500)
    const pinned = makeConfig({
      secret: undefined,
      url: "https://app.example.com",
      pages: { error: "/oops" },
    }).config
    const forged = get("/auth/signin", { headers: { host: "attacker.test" } })
    expect((await Auth(forged, pinned)).headers.get("location")).toBe(
      "https://app.example.com/oops?error=Configuration",
    )
  })

  test("a custom error page that asks for a sign-in does not loop: the built-in page, and ErrorPageLoop logged (as Auth.js)", async () => {
    const { config, log } = makeConfig({ secret: undefined, pages: { error: "/oops" } })
    // The app's error page sent the browser to sign in, with itself as the way back.
    for (const back of ["/oops?error=Configuration", `${ORIGIN}/oops`]) {
      const query = new URLSearchParams({ callbackUrl: back })
      const response = await Auth(get(`/auth/signin?${query}`), config)
      expect(response.status).toBe(500)
      expect(response.headers.get("location")).toBeNull()
      expect(response.headers.get("content-type")).toMatch(/^text\/html/)
    }
    expect(
      log.errors.filter((e) => (e as { type?: string }).type === "ErrorPageLoop"),
    ).toHaveLength(2)
    // Another way back still goes to the custom page.
    const elsewhere = await Auth(get("/auth/signin?callbackUrl=%2Foops-not"), config)
    expect(elsewhere.headers.get("location")).toBe(`${ORIGIN}/oops?error=Configuration`)
  })

  test("in raw mode the configuration error is thrown to the integration", async () => {
    const { config } = makeConfig({ secret: undefined })
    await expect(Auth(get("/auth/session"), { ...config, raw })).rejects.toMatchObject({
      type: "MissingSecret",
    })
  })

  test("an error without an AuthError class is wrapped, with the original as cause", async () => {
    const log = recordingLogger()
    const config = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      providers: [
        () => {
          throw new RangeError("factory exploded")
        },
      ],
    } as unknown as AuthConfig
    expect((await Auth(get("/auth/session"), config)).status).toBe(500)
    expect(log.errors[0]).toMatchObject({ type: "InvalidConfiguration" })
    expect((log.errors[0]!.cause as { err: Error }).err.message).toBe("factory exploded")
  })
})

describe("resolved once per config object", () => {
  test("many requests read the configuration once", async () => {
    let reads = 0
    const providers = [credentialsProvider()]
    const log = recordingLogger()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      allowedHosts: ["localhost:3000"],
      logger: log.logger,
      debug: true,
      skipCSRFCheck,
      get providers() {
        reads++
        return providers
      },
    }
    const { jar } = await signIn(config)
    for (let i = 0; i < 20; i++) {
      expect((await Auth(get("/auth/session", { jar }), config)).status).toBe(200)
      await Auth(get("/auth/signin"), config)
      await Auth(get("/auth/providers"), config)
    }
    expect(reads).toBe(1)
    // Warnings come from resolution: once each, not per request.
    expect(log.warnings.sort()).toEqual(["csrf-disabled", "debug-enabled"])
  })

  test("a broken configuration is diagnosed and logged once, and answered on every request", async () => {
    let reads = 0
    const log = recordingLogger()
    const config = {
      trustHost: true,
      logger: log.logger,
      get providers() {
        reads++
        return [credentialsProvider()]
      },
    } as AuthConfig
    for (let i = 0; i < 5; i++) expect((await Auth(get("/auth/session"), config)).status).toBe(500)
    expect(reads).toBe(1)
    expect(log.errors.map((e) => (e as { type?: string }).type)).toEqual(["MissingSecret"])
  })

  test("a provider factory is called once, not per request", async () => {
    let calls = 0
    const factory = () => {
      calls++
      return credentialsProvider()
    }
    const { config } = makeConfig({ providers: [factory as any] })
    for (let i = 0; i < 10; i++) await Auth(get("/auth/providers"), config)
    expect(calls).toBe(1)
  })

  test("another config object is resolved on its own", async () => {
    const a = makeConfig().config
    const b = { ...a, secret: undefined }
    expect((await Auth(get("/auth/session"), a)).status).toBe(200)
    expect((await Auth(get("/auth/session"), b)).status).toBe(500)
    expect((await Auth(get("/auth/session"), a)).status).toBe(200)
  })
})

describe("options", () => {
  test("provider options given to a factory override its defaults; name defaults to the id", async () => {
    const { config } = makeConfig({
      providers: [
        credentialsProvider({ id: "password", name: "Password" }),
        { ...credentialsProvider({ id: "pin" }), name: undefined } as any,
      ],
    })
    const list = (await (await Auth(get("/auth/providers"), config)).json()) as Record<
      string,
      { name: string }
    >
    expect(Object.keys(list)).toEqual(["password", "pin"])
    expect(list.password!.name).toBe("Password")
    expect(list.pin!.name).toBe("pin")
  })

  test("secret as a list: the first signs, all verify", async () => {
    const old = "old-secret-old-secret-old-secret-old-secret"
    const { config: before } = makeConfig({ secret: old })
    const { jar } = await signIn(before)
    const { config: after } = makeConfig({ secret: [SECRET, old] })
    const response = await Auth(get("/auth/session", { jar }), after)
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe("Ada Lovelace")
  })
})
