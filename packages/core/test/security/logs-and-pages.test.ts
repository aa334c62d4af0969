/**
 * What reaches logs and what protects the built-in pages.
 *
 * - An expired or tampered session cookie must not carry its decrypted claims
 *   (an e-mail address, stored OAuth tokens) to any log line or error.
 * - Refusals a client causes are never logged as server errors: an attacker
 *   must not be able to flood the error log, or raise alerts, at will.
 * - A configuration error is logged once, not per request.
 * - Built-in pages cannot be framed, cached, or run injected inline code.
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { encode } from "@tessera/core/jwt"
import {
  credentialsProvider,
  get,
  makeConfig,
  post,
  recordingLogger,
  SECRET,
} from "../harness/index.js"

const COOKIE = "tessera.session-token"
const CLAIMS = {
  sub: "user-1",
  email: "secret-claim-holder@example.org",
  accessToken: "ya29.super-secret-provider-token",
}

/** Every string the logger received, whatever the method. */
function everything(log: ReturnType<typeof recordingLogger>, extra: unknown[] = []): string {
  const seen = new WeakSet<object>()
  const walk = (value: unknown): string => {
    if (value instanceof Error) {
      return [
        value.name,
        value.message,
        value.stack,
        walk((value as { cause?: unknown }).cause),
      ].join(" ")
    }
    if (value && typeof value === "object") {
      if (seen.has(value)) return ""
      seen.add(value)
      return Object.values(value).map(walk).join(" ")
    }
    return String(value)
  }
  return [...log.errors, ...log.warnings, ...log.debug, ...log.refusals, ...extra]
    .map(walk)
    .join("\n")
}

describe("session cookies that do not decode", () => {
  test.each([
    ["expired", () => encode({ token: CLAIMS, secret: SECRET, salt: COOKIE, maxAge: -3600 })],
    [
      "tampered",
      async () => {
        const token = await encode({ token: CLAIMS, secret: SECRET, salt: COOKIE })
        return token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA")
      },
    ],
  ])("an %s cookie: no claim reaches the logger, at any level", async (_, make) => {
    const log = recordingLogger()
    const debug: unknown[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      debug: true,
      providers: [credentialsProvider()],
      logger: {
        ...log.logger,
        debug: (message, metadata) => {
          debug.push(metadata)
          log.logger.debug(message, metadata)
        },
      },
    }
    const response = await Auth(
      get("/auth/session", { headers: { cookie: `${COOKIE}=${await make()}` } }),
      config,
    )
    expect(await response.json()).toBeNull()
    const text = everything(log, debug)
    expect(text).not.toContain(CLAIMS.email)
    expect(text).not.toContain(CLAIMS.accessToken)
    expect(log.errors).toEqual([])
  })
})

describe("client refusals are not server errors", () => {
  test.each([
    ["a POST without a CSRF token", () => post("/auth/callback/credentials", { username: "ada" })],
    ["a wrong password", null],
    ["an unknown action", () => get("/auth/nope")],
    [
      "a malformed body",
      () =>
        new Request("http://localhost:3000/auth/session", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{",
        }),
    ],
    ["an unknown provider", () => get("/auth/callback/nobody")],
  ])("%s: logged at debug level, without a stack, never at error", async (what, make) => {
    const { config, log } = makeConfig({ debug: true })
    if (make) {
      await Auth(make(), config)
    } else {
      const { signIn } = await import("../harness/index.js")
      await signIn(config, { username: "ada", password: "wrong" })
    }
    expect(log.errors, what).toEqual([])
    expect(log.debug.length, what).toBeGreaterThan(0)
  })

  test("the default logger prints a refusal's type and message, not its stack", async () => {
    const lines: unknown[] = []
    const original = console.debug
    console.debug = (...args: unknown[]) => void lines.push(...args)
    try {
      await Auth(post("/auth/callback/credentials", { username: "ada" }), {
        secret: SECRET,
        trustHost: true,
        debug: true,
        providers: [credentialsProvider()],
      })
    } finally {
      console.debug = original
    }
    const printed = lines.map(String).join("\n")
    expect(printed).toContain("MissingCSRF")
    expect(printed).not.toMatch(/\n\s+at /)
  })
})

test("a configuration error is logged once for its configuration, not per request", async () => {
  const log = recordingLogger()
  const config = { trustHost: true, logger: log.logger, providers: [] } as AuthConfig
  for (let i = 0; i < 10; i++) await Auth(get("/auth/session"), config)
  expect(log.errors).toHaveLength(1)
})

describe("built-in pages", () => {
  test.each([
    "/auth/signin",
    "/auth/signout",
    "/auth/error?error=Verification",
    "/auth/verify-request",
  ])("%s cannot be framed or cached and runs only its own inline code", async (path) => {
    const { config } = makeConfig()
    const response = await Auth(get(path), config)
    const headers = response.headers
    expect(headers.get("x-frame-options")).toBe("DENY")
    expect(headers.get("cache-control")).toContain("no-store")
    expect(headers.get("x-content-type-options")).toBe("nosniff")
    expect(headers.get("referrer-policy")).toMatch(/^(no-referrer|same-origin)$/)
    const csp = headers.get("content-security-policy")!
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("default-src 'none'")
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!
    expect(nonce.length).toBeGreaterThanOrEqual(22)
    const html = await response.text()
    // Every <style>/<script> carries this response's nonce; no inline style or handler attributes.
    for (const tag of html.match(/<(script|style)\b[^>]*>/g) ?? [])
      expect(tag).toContain(`nonce="${nonce}"`)
    expect(html).not.toMatch(/\sstyle="/)
    expect(html).not.toMatch(/\son[a-z]+="/)
  })

  test("each page gets a fresh nonce", async () => {
    const { config } = makeConfig()
    const csp = async () =>
      (await Auth(get("/auth/signin"), config)).headers.get("content-security-policy")
    expect(await csp()).not.toBe(await csp())
  })

  test("a malformed e-mail link's page (its URL holds the token) sends no Referer at all", async () => {
    const { MemoryAdapter } = await import("@tessera/testing")
    const Email = (await import("@tessera/core/providers/email")).default
    const { config } = makeConfig({
      adapter: MemoryAdapter(),
      providers: [Email({ sendVerificationRequest: () => {} })],
    })
    const response = await Auth(
      get("/auth/callback/email?token=%20bad&email=a@example.com"),
      config,
    )
    expect(response.status).toBe(400)
    expect(response.headers.get("referrer-policy")).toBe("no-referrer")
  })
})
