/**
 * ID Tokens that must not sign anyone in. oidc-provider cannot be made to
 * issue them, so a stand-in issuer on loopback serves discovery, a JWKS and a
 * token endpoint whose ID Token each test crafts with jose.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { SignJWT } from "jose"
import type { AuthConfig } from "../../../src/config/auth-config.js"
import { Browser, recordingLogger, SECRET, setsSession } from "../../harness/index.js"
import { issuerOn, StandIn, type CodeRecord, type FakeIssuer } from "../../harness/stand-in.js"

const ORIGIN = "http://localhost:3000"
let standIn: StandIn
let issuer: FakeIssuer
/** What the token endpoint answers for the current test. */
let mint: (record: CodeRecord, issuer: FakeIssuer) => Promise<Record<string, unknown>>

beforeAll(async () => {
  standIn = await StandIn.start()
  issuer = await issuerOn(standIn, {
    clientSecret: "client-1-secret-that-is-long-enough-for-hs256",
    tokenResponse: (record, issuer) => mint(record, issuer),
  })
})
afterAll(() => standIn?.stop())

function config(extra: Record<string, unknown> = {}) {
  const recorder = recordingLogger()
  const cfg: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: recorder.logger,
    providers: [
      {
        id: "stand-in",
        name: "Stand-in",
        type: "oidc",
        issuer: issuer.issuer,
        clientId: "client-1",
        clientSecret: "client-1-secret-that-is-long-enough-for-hs256",
        dangerouslyAllowInsecureHttpRequests: true,
        ...extra,
      },
    ],
  }
  return { cfg, ...recorder }
}

function tokens(idToken: string) {
  return {
    access_token: `at-${crypto.randomUUID()}`,
    token_type: "Bearer",
    expires_in: 600,
    id_token: idToken,
  }
}

async function callbackWith(extra: Record<string, unknown> = {}) {
  const { cfg, errors } = config(extra)
  const browser = new Browser(cfg)
  const start = await browser.startSignIn("stand-in")
  const url = issuer.authorize(start.headers.get("location")!, "user-42")
  const response = await browser.request(url.href)
  return { response, errors, browser }
}

function expectRefused(response: Response, errors: Error[], fragment: string | RegExp) {
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
  expect(setsSession(response)).toBe(false)
  expect(errors.at(-1)?.message).toMatch(fragment)
}

describe("ID Token validation", () => {
  test("baseline: a well-formed, correctly signed ID Token signs in", async () => {
    mint = async (record, issuer) =>
      tokens(await issuer.idToken(issuer.defaultIdTokenClaims(record)))
    const { response, browser } = await callbackWith()
    expect(setsSession(response)).toBe(true)
    expect((await browser.session()).user).toEqual({ name: null, email: null, image: null })
  })

  test("another audience", async () => {
    mint = async (record, issuer) =>
      tokens(await issuer.idToken({ ...issuer.defaultIdTokenClaims(record), aud: "someone-else" }))
    const { response, errors } = await callbackWith()
    expectRefused(response, errors, /aud/)
  })

  test("our client among several audiences, but authorized for another party (azp)", async () => {
    mint = async (record, issuer) =>
      tokens(
        await issuer.idToken({
          ...issuer.defaultIdTokenClaims(record),
          aud: ["client-1", "other"],
          azp: "other",
        }),
      )
    const { response, errors } = await callbackWith()
    expectRefused(response, errors, /azp/)
  })

  test("another issuer", async () => {
    mint = async (record, issuer) =>
      tokens(
        await issuer.idToken({
          ...issuer.defaultIdTokenClaims(record),
          iss: "https://evil.example",
        }),
      )
    const { response, errors } = await callbackWith()
    expectRefused(response, errors, /iss/)
  })

  test("expired", async () => {
    const past = Math.floor(Date.now() / 1000) - 3600
    mint = async (record, issuer) =>
      tokens(
        await issuer.idToken({ ...issuer.defaultIdTokenClaims(record), iat: past - 60, exp: past }),
      )
    const { response, errors } = await callbackWith()
    expectRefused(response, errors, /exp/)
  })

  test("alg: none (unsigned)", async () => {
    mint = async (record, issuer) => {
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
      return tokens(
        `${encode({ alg: "none", typ: "JWT" })}.${encode(issuer.defaultIdTokenClaims(record))}.`,
      )
    }
    const { response, errors } = await callbackWith()
    expectRefused(response, errors, /alg/)
  })

  test("tampered payload (signature no longer matches)", async () => {
    mint = async (record, issuer) => {
      const [header, , signature] = (
        await issuer.idToken(issuer.defaultIdTokenClaims(record))
      ).split(".")
      const forged = Buffer.from(
        JSON.stringify({ ...issuer.defaultIdTokenClaims(record), sub: "admin" }),
      ).toString("base64url")
      return tokens(`${header}.${forged}.${signature}`)
    }
    const { response, errors } = await callbackWith()
    expectRefused(response, errors, /signature/)
  })

  test("signed by a key the issuer does not publish, under the issuer's key id", async () => {
    mint = async (record, issuer) =>
      tokens(await issuer.idToken(issuer.defaultIdTokenClaims(record), { key: issuer.strangerKey }))
    const { response, errors } = await callbackWith()
    expectRefused(response, errors, /signature/)
  })

  test("HS256 signed with the client secret is refused unless the client expects HS256", async () => {
    const secret = new TextEncoder().encode("client-1-secret-that-is-long-enough-for-hs256")
    mint = async (record, issuer) =>
      tokens(
        await new SignJWT(issuer.defaultIdTokenClaims(record))
          .setProtectedHeader({ alg: "HS256" })
          .sign(secret),
      )
    const refused = await callbackWith()
    expectRefused(refused.response, refused.errors, /alg/)

    const accepted = await callbackWith({ client: { id_token_signed_response_alg: "HS256" } })
    expect(setsSession(accepted.response)).toBe(true)
  })

  test("HS256 signed with another secret", async () => {
    const wrong = new TextEncoder().encode("not-the-client-secret-but-long-enough-for-hs256")
    mint = async (record, issuer) =>
      tokens(
        await new SignJWT(issuer.defaultIdTokenClaims(record))
          .setProtectedHeader({ alg: "HS256" })
          .sign(wrong),
      )
    const { response, errors } = await callbackWith({
      client: { id_token_signed_response_alg: "HS256" },
    })
    expectRefused(response, errors, /signature/)
  })

  test("nonce missing from the ID Token", async () => {
    mint = async (record, issuer) => {
      const { nonce: _nonce, ...claims } = issuer.defaultIdTokenClaims(record)
      return tokens(await issuer.idToken(claims))
    }
    const { response, errors } = await callbackWith()
    expectRefused(response, errors, /nonce/)
  })

  test("no ID Token at all from an OIDC provider", async () => {
    mint = async () => ({ access_token: "at-x", token_type: "Bearer" })
    const { response, errors } = await callbackWith()
    expectRefused(response, errors, /id_token/)
  })

  test("token endpoint error: the provider's error code is logged, not the response body", async () => {
    mint = async () => {
      throw new Error("unreachable")
    }
    const { cfg, errors, refusals } = config()
    const browser = new Browser({ ...cfg, debug: true })
    const start = await browser.startSignIn("stand-in")
    const url = issuer.authorize(start.headers.get("location")!, "user-42")
    const bad = new URL(url)
    bad.searchParams.set("code", "not-a-code")
    // A spent or forged code is the client's doing: a debug-level refusal, not a server error.
    expectRefused(await browser.request(bad.href), refusals, /invalid_grant/)
    expect(errors).toEqual([])
  })
})
