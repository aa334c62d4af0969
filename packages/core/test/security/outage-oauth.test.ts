/**
 * OAuth and OpenID sign-in while the provider is down or hangs. Every request
 * Tessera makes to a provider carries a time bound (10 s by default, as its
 * `signal`); here the provider's `customFetch` honours that bound on a fast
 * clock (`boundHonouringFetch`), so a hung endpoint ends the sign-in within a
 * second instead of undici's 300 s. Without the bound the request is never
 * ended and the test runs into its own timeout.
 *
 * Each outage must answer with the error page, the `error` value Tessera uses
 * for that step, be logged once at error level, and leak nothing of the
 * client secret, the code or the tokens.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, customFetch, type AuthConfig } from "@tessera/core"
import {
  completeOidcLogin,
  localOidcProvider,
  MemoryAdapter,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { Browser, ORIGIN, post, recordingLogger, SECRET } from "../harness/index.js"
import {
  boundHonouringFetch,
  closedPort,
  signInPageError,
  startHungPeer,
  timed,
  type HungPeer,
} from "../harness/unresponsive.js"

/** The fast clock's bound. */
const BOUND_MS = 300
/** What an answer may take: the bound plus the flow's own work, far below any runtime default. */
const ANSWER_WITHIN_MS = 3_000
/** A test that hangs fails here rather than waiting for undici (300 s). */
const TEST_TIMEOUT_MS = 8_000

let idp: OidcProviderServer
let hung: HungPeer

beforeAll(async () => {
  ;[idp, hung] = await Promise.all([
    startOidcProvider({
      redirectUris: ["acme", "acme-userinfo"].map((id) => `${ORIGIN}/auth/callback/${id}`),
    }),
    startHungPeer(),
  ])
})
afterAll(async () => {
  await Promise.all([idp?.stop(), hung?.stop()])
})

function setup(provider: Record<string, unknown>) {
  const log = recordingLogger()
  const transport = boundHonouringFetch(BOUND_MS)
  /** Token responses as the provider sent them: their tokens must not show up anywhere. */
  const secrets: string[] = [idp.clientSecret]
  const fetcher: typeof fetch = async (input, init) => {
    const response = await transport.fetch(input, init)
    if (String(input).endsWith("/token")) {
      const body = (await response
        .clone()
        .json()
        .catch(() => ({}))) as Record<string, unknown>
      for (const key of ["access_token", "id_token", "refresh_token"])
        if (typeof body[key] === "string") secrets.push(body[key])
    }
    return response
  }
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(),
    logger: log.logger,
    providers: [
      { ...localOidcProvider(idp, "acme"), [customFetch]: fetcher, ...provider } as never,
    ],
  }
  return { config, log, seen: transport.seen, secrets }
}

/** Everything a logged error carries, its causes included, as text. */
function loggedText(errors: Error[]): string {
  const parts: string[] = []
  const walk = (value: unknown, depth: number) => {
    if (depth > 6 || value === undefined || value === null) return
    if (value instanceof Error) {
      parts.push(value.name, value.message, value.stack ?? "")
      walk((value as { cause?: unknown }).cause, depth + 1)
    } else if (typeof value === "object") {
      for (const inner of Object.values(value)) walk(inner, depth + 1)
    } else parts.push(String(value))
  }
  for (const error of errors) walk(error, 0)
  return parts.join("\n")
}

/** The sign-in page's `error` value the answer sends the browser to. */
const errorOf = (response: Response) => signInPageError(response, ORIGIN)

function expectNothingLeaked(response: Response, body: string, log: string, secrets: string[]) {
  const answer = `${response.headers.get("location")}\n${body}`
  for (const secret of secrets) {
    expect(answer).not.toContain(secret)
    expect(log).not.toContain(secret)
  }
}

/** Sign-in up to the callback at the real provider; the callback request is left to the test. */
async function toCallback(config: AuthConfig, id = "acme", userAgent: typeof fetch = fetch) {
  const browser = new Browser(config)
  const start = await browser.startSignIn(id)
  expect(start.status).toBe(302)
  const back = await completeOidcLogin(start.headers.get("location")!, {
    accountId: "ada",
    fetch: userAgent,
  })
  return { browser, back }
}

describe("sign-in start while the provider's discovery is out", () => {
  test(
    "discovery hangs: the error page within the bound, logged once",
    async () => {
      const { config, log, seen, secrets } = setup({ issuer: hung.url })
      const browser = new Browser(config)
      const { value: response, ms } = await timed(() => browser.startSignIn("acme"))
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS)
      expect(errorOf(response)).toBe("OAuthSignin")
      expect(seen.every((request) => request.bounded)).toBe(true)
      expect(log.logged).toEqual([
        expect.objectContaining({
          type: "OAuthSignInError",
          cause: expect.stringMatching(/timeout/),
        }),
      ])
      expectNothingLeaked(response, await response.text(), loggedText(log.errors), secrets)
    },
    TEST_TIMEOUT_MS,
  )

  test("discovery is down (connection refused): the same answer", async () => {
    const { config, log, secrets } = setup({ issuer: `http://127.0.0.1:${await closedPort()}` })
    const response = await new Browser(config).startSignIn("acme")
    expect(errorOf(response)).toBe("OAuthSignin")
    expect(log.errors).toHaveLength(1)
    expectNothingLeaked(response, await response.text(), loggedText(log.errors), secrets)
  })
})

describe("callback while an endpoint of the provider is out", () => {
  const cases = [
    ["token endpoint", "token", { token: `HUNG/token` }],
    ["userinfo endpoint", "userinfo", { userinfo: `HUNG/userinfo`, idToken: false }],
    ["JWKS (the ID Token's keys)", "jwks", { jwks_endpoint: `HUNG/jwks` }],
    [
      "userinfo read by the provider's own request (as GitHub's, with the fetch it is given)",
      "userinfo-request",
      {
        idToken: false,
        userinfo: {
          url: `HUNG/user`,
          request: async (context: {
            provider: { userinfo?: { url?: string } }
            fetch: typeof fetch
          }) => (await context.fetch(context.provider.userinfo!.url!)).json(),
        },
      },
    ],
  ] as const

  for (const [name, , options] of cases) {
    test(
      `${name} hangs: the error page within the bound, logged once, nothing leaked`,
      async () => {
        const atHungPeer = (value: unknown): unknown =>
          typeof value === "string"
            ? value.replace("HUNG", hung.url)
            : value && typeof value === "object"
              ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, atHungPeer(v)]))
              : value
        const resolved = atHungPeer(options) as Record<string, unknown>
        const { config, log, seen, secrets } = setup(resolved)
        const { browser, back } = await toCallback(config)
        const code = back.url.searchParams.get("code")!
        secrets.push(code)
        const { value: response, ms } = await timed(() =>
          browser.request(back.url.pathname + back.url.search),
        )
        expect(ms).toBeLessThan(ANSWER_WITHIN_MS)
        expect(errorOf(response)).toBe("OAuthCallbackError")
        expect(seen.every((request) => request.bounded)).toBe(true)
        expect(log.logged).toEqual([
          expect.objectContaining({
            type: "OAuthProviderError",
            cause: expect.stringMatching(/timeout/),
          }),
        ])
        expect(await browser.session()).toBeNull()
        expectNothingLeaked(response, await response.text(), loggedText(log.errors), secrets)
      },
      TEST_TIMEOUT_MS,
    )
  }

  test("token endpoint is down (connection refused): the same answer", async () => {
    const { config, log, secrets } = setup({
      token: `http://127.0.0.1:${await closedPort()}/token`,
    })
    const { browser, back } = await toCallback(config)
    secrets.push(back.url.searchParams.get("code")!)
    const response = await browser.request(back.url.pathname + back.url.search)
    expect(errorOf(response)).toBe("OAuthCallbackError")
    expect(log.errors).toHaveLength(1)
    expectNothingLeaked(response, await response.text(), loggedText(log.errors), secrets)
  })
})

describe("back-channel logout while the provider's JWKS hangs", () => {
  test(
    "the logout token is refused within the bound, logged once",
    async () => {
      const { config, log, seen } = setup({ jwks_endpoint: `${hung.url}/jwks` })
      const token = idp.logoutToken({ sub: "ada" })
      const { value: response, ms } = await timed(() =>
        Auth(post("/auth/backchannel-logout/acme", { logout_token: token }), config),
      )
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS)
      // The spec's answer to a logout that failed (Back-Channel Logout 1.0 §2.8).
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({
        error: "invalid_request",
        error_description: "The logout token could not be checked",
      })
      expect(seen.every((request) => request.bounded)).toBe(true)
      expect(log.logged).toEqual([
        {
          type: "OAuthProviderError",
          message: 'Provider "acme": the logout token could not be checked',
          cause: expect.stringMatching(/timed out|aborted/),
        },
      ])
      expect(loggedText(log.errors)).not.toContain(token)
    },
    TEST_TIMEOUT_MS,
  )
})

test("with no customFetch, every request to the provider carries the default bound", async () => {
  // The global fetch is what runs without customFetch: watched here, not replaced.
  const original = globalThis.fetch
  const bounded: boolean[] = []
  globalThis.fetch = (input, init) => {
    bounded.push(init?.signal instanceof AbortSignal && !init.signal.aborted)
    return original(input, init)
  }
  try {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      providers: [{ ...localOidcProvider(idp, "acme-userinfo"), idToken: false } as never],
    }
    const { browser, back } = await toCallback(config, "acme-userinfo", original)
    const done = await browser.request(back.url.pathname + back.url.search)
    expect(done.status).toBe(302)
    expect(await browser.session()).not.toBeNull()
  } finally {
    globalThis.fetch = original
  }
  // Discovery, token, JWKS, userinfo.
  expect(bounded.length).toBeGreaterThanOrEqual(3)
  expect(bounded.every(Boolean)).toBe(true)
})
