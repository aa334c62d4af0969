/**
 * OpenID Connect sign-in while the issuer's discovery document is down, hangs
 * or is garbage. A failed discovery used to be forgotten at once, so every
 * sign-in during the outage fetched it again and waited on it (up to the 10 s
 * request bound for one that hangs). It is now remembered for
 * `DISCOVERY_RETRY_AFTER_MS` (10 s): sign-ins in that window fail at once with
 * the same answer the first got (`error=OAuthSignin`, logged at error level),
 * concurrent ones share the first request, and the first sign-in after the
 * window tries again. A success is kept as before.
 *
 * The issuer is a stand-in on loopback (node:http) that counts the requests for
 * its discovery document. The window is crossed by moving `Date` only (vitest
 * fakes nothing else): the network and timers stay real.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest"
import { customFetch, type AuthConfig } from "@tessera/core"
import { DISCOVERY_RETRY_AFTER_MS } from "../../src/flows/oauth/discovery.js"
import { Browser, ORIGIN, recordingLogger, SECRET, setsSession } from "../harness/index.js"
import { issuerOn, json, StandIn, type FakeIssuer } from "../harness/stand-in.js"
import {
  boundHonouringFetch,
  signInPageError,
  startHungPeer,
  type HungPeer,
} from "../harness/unresponsive.js"

/** A test that would wait on every sign-in fails here rather than running on. */
const TEST_TIMEOUT_MS = 8_000

let standIn: StandIn
let issuer: FakeIssuer
let hung: HungPeer
let discoveryUrl: string
/** What the discovery endpoint answers now. */
let mode: "up" | "down" | "garbage" = "up"

beforeAll(async () => {
  standIn = await StandIn.start()
  hung = await startHungPeer()
  // Discovery is served below, so that it can go down.
  issuer = await issuerOn(standIn, { discovery: false })
  discoveryUrl = `${issuer.issuer}/.well-known/openid-configuration`
  standIn.on("GET", discoveryUrl, () => {
    if (mode === "down") return new Response("Service Unavailable", { status: 503 })
    if (mode === "garbage")
      return new Response("<html>maintenance</html>", { headers: { "content-type": "text/html" } })
    const { authorizationEndpoint, tokenEndpoint, jwksUri } = issuer.options
    return json({
      issuer: issuer.issuer,
      authorization_endpoint: authorizationEndpoint,
      token_endpoint: tokenEndpoint,
      jwks_uri: jwksUri,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
    })
  })
})
afterAll(async () => {
  await Promise.all([standIn?.stop(), hung?.stop()])
})
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
})
afterEach(() => {
  vi.useRealTimers()
  mode = "up"
})

/** A configuration of its own (its own metadata cache) for one provider at `issuerUrl`. */
function setup(provider: Record<string, unknown> = {}) {
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    providers: [
      {
        id: "stand-in",
        name: "Stand-in",
        type: "oidc",
        issuer: issuer.issuer,
        clientId: "client-1",
        clientSecret: "client-1-secret",
        dangerouslyAllowInsecureHttpRequests: true,
        ...provider,
      } as never,
    ],
  }
  return { config, log }
}

/** Requests for the discovery document so far. */
const discoveries = () => standIn.requestsTo(discoveryUrl).length

/** Moves the clock on by `ms` (only `Date`: nothing waits). */
const later = (ms: number) => vi.setSystemTime(Date.now() + ms)

const signInError = async (config: AuthConfig) =>
  signInPageError(await new Browser(config).startSignIn("stand-in"), ORIGIN)

describe("a failed discovery is remembered for a while", () => {
  test(
    "garbage: concurrent and later sign-ins share one request, the next window retries, the recovered issuer works",
    async () => {
      mode = "garbage"
      const { config, log } = setup()
      const before = discoveries()

      // Concurrent sign-ins while the first discovery runs: one request.
      const first = await Promise.all([1, 2, 3].map(() => signInError(config)))
      expect(first).toEqual(["OAuthSignin", "OAuthSignin", "OAuthSignin"])
      expect(discoveries() - before).toBe(1)

      // Within the window: the same answer at once, no request.
      later(DISCOVERY_RETRY_AFTER_MS - 1_000)
      for (let i = 0; i < 3; i++) expect(await signInError(config)).toBe("OAuthSignin")
      expect(discoveries() - before).toBe(1)

      // Each was logged as the first was: once, at error level, with the same error.
      expect(log.errors).toHaveLength(6)
      expect(new Set(log.logged.map((entry) => JSON.stringify(entry))).size).toBe(1)
      expect(log.logged[0]).toMatchObject({ type: "OAuthSignInError" })

      // Past the window: tried again (still garbage, so remembered again).
      later(2_000)
      expect(await signInError(config)).toBe("OAuthSignin")
      expect(discoveries() - before).toBe(2)

      // The issuer recovers: seen once this window is over.
      mode = "up"
      expect(await signInError(config)).toBe("OAuthSignin")
      expect(discoveries() - before).toBe(2)
      later(DISCOVERY_RETRY_AFTER_MS + 1_000)
      const browser = new Browser(config)
      const start = await browser.startSignIn("stand-in")
      expect(start.status).toBe(302)
      const authorize = new URL(start.headers.get("location")!)
      expect(`${authorize.origin}${authorize.pathname}`).toBe(issuer.options.authorizationEndpoint)
      const done = await browser.request(issuer.authorize(authorize, "user-7").href)
      expect(setsSession(done)).toBe(true)
      expect(discoveries() - before).toBe(3)

      // A success is kept as before: no more requests, however late.
      later(10 * DISCOVERY_RETRY_AFTER_MS)
      expect((await new Browser(config).startSignIn("stand-in")).status).toBe(302)
      expect(discoveries() - before).toBe(3)
      expect(log.errors).toHaveLength(8)
    },
    TEST_TIMEOUT_MS,
  )

  test("down (503): one request for every sign-in in the window", async () => {
    mode = "down"
    const { config, log } = setup()
    const before = discoveries()
    for (let i = 0; i < 4; i++) expect(await signInError(config)).toBe("OAuthSignin")
    expect(discoveries() - before).toBe(1)
    expect(log.errors).toHaveLength(4)
    later(DISCOVERY_RETRY_AFTER_MS)
    mode = "up"
    expect((await new Browser(config).startSignIn("stand-in")).status).toBe(302)
    expect(discoveries() - before).toBe(2)
  })

  test(
    "hangs: only the first sign-in waits on it; the others are answered without a connection",
    async () => {
      // The bound on a fast clock (as in outage-oauth.test.ts): 300 ms instead of 10 s.
      const { config, log } = setup({
        issuer: hung.url,
        [customFetch]: boundHonouringFetch(300).fetch,
      })
      const before = hung.connections
      for (let i = 0; i < 3; i++) expect(await signInError(config)).toBe("OAuthSignin")
      expect(hung.connections - before).toBe(1)
      expect(log.logged).toEqual(
        Array(3).fill(
          expect.objectContaining({
            type: "OAuthSignInError",
            cause: expect.stringMatching(/timeout/),
          }),
        ),
      )
    },
    TEST_TIMEOUT_MS,
  )
})
