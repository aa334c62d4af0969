/**
 * Fail-closed checks against a real OpenID Provider (oidc-provider): every
 * broken state, PKCE or nonce binding, and a replayed code, is refused, sends
 * the user to the sign-in page with error=OAuthCallbackError, logs a cause
 * that carries no code or token, and sets no session cookie.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { completeOidcLogin, startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import type { AuthConfig } from "../../../src/config/auth-config.js"
import { Browser, setCookies, recordingLogger, SECRET, setsSession } from "../../harness/index.js"

const ORIGIN = "http://localhost:3000"
let idp: OidcProviderServer

beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/local`] })
})
afterAll(() => idp?.stop())

function setup() {
  const recorder = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    // Client refusals are logged at debug level.
    debug: true,
    logger: recorder.logger,
    providers: [
      {
        id: "local",
        name: "Local",
        type: "oidc",
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        checks: ["pkce", "state", "nonce"],
        dangerouslyAllowInsecureHttpRequests: true,
      },
    ],
  }
  return { config, ...recorder }
}

/** Signs in up to the IdP's redirect back; the callback is not visited yet. */
async function flow(config: AuthConfig, accountId = "ada") {
  const browser = new Browser(config)
  const start = await browser.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
  return { browser, url: back.url, cookies: new Map(browser.jar) }
}

function expectRefused(response: Response, refusals: Error[], type: string, url: URL) {
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
  expect(setsSession(response)).toBe(false)
  // Whatever check cookies the request carried are spent: cleared, never set anew.
  for (const cookie of setCookies(response)) {
    expect(cookie.attributes["max-age"], cookie.name).toBe("0")
  }
  const logged = refusals.at(-1)
  expect(logged?.name).toBe(type)
  // The logged error and its cause name the failure but carry no code, state or token.
  const text = JSON.stringify({
    message: logged?.message,
    cause: logged?.cause,
    inner: String((logged?.cause as any)?.err?.stack),
  })
  for (const secret of [url.searchParams.get("code"), url.searchParams.get("state")])
    if (secret) expect(text).not.toContain(secret)
  expect(text).not.toMatch(/access_token|eyJ/)
}

describe("refused callbacks (oidc-provider)", () => {
  test("state cookie missing", async () => {
    const { config, refusals } = setup()
    const { browser, url } = await flow(config)
    browser.jar.delete("tessera.state")
    expectRefused(await browser.request(url.href), refusals, "InvalidCheck", url)
  })

  test("a missing check cookie does not leave the others behind", async () => {
    const { config, refusals } = setup()
    const { browser, url } = await flow(config)
    browser.jar.delete("tessera.state")
    const response = await browser.request(url.href)
    expectRefused(response, refusals, "InvalidCheck", url)
    expect(
      setCookies(response)
        .map((c) => c.name)
        .sort(),
    ).toEqual(["tessera.nonce", "tessera.pkce.code_verifier"])
  })

  test("a refused callback clears the check cookies it read", async () => {
    const { config, refusals } = setup()
    const { browser, url } = await flow(config)
    const forged = new URL(url)
    forged.searchParams.set("state", "forged")
    const response = await browser.request(forged.href)
    expectRefused(response, refusals, "InvalidCheck", url)
    const cleared = setCookies(response).map((c) => c.name)
    expect(cleared).toEqual(
      expect.arrayContaining(["tessera.state", "tessera.pkce.code_verifier", "tessera.nonce"]),
    )
  })

  test("state parameter changed", async () => {
    const { config, refusals } = setup()
    const { browser, url } = await flow(config)
    const forged = new URL(url)
    forged.searchParams.set("state", `${url.searchParams.get("state")!.slice(0, -2)}AA`)
    expectRefused(await browser.request(forged.href), refusals, "InvalidCheck", url)
  })

  test("state parameter missing", async () => {
    const { config, refusals } = setup()
    const { browser, url } = await flow(config)
    const stripped = new URL(url)
    stripped.searchParams.delete("state")
    expectRefused(await browser.request(stripped.href), refusals, "InvalidCheck", url)
  })

  test("state from another browser's sign-in (login CSRF)", async () => {
    const { config, refusals } = setup()
    const attacker = await flow(config, "mallory")
    const victim = new Browser(config)
    await victim.startSignIn("local")
    // The victim is lured to the attacker's callback URL: the victim's cookies do not match it.
    expectRefused(await victim.request(attacker.url.href), refusals, "InvalidCheck", attacker.url)
  })

  test("PKCE verifier cookie missing", async () => {
    const { config, refusals } = setup()
    const { browser, url } = await flow(config)
    browser.jar.delete("tessera.pkce.code_verifier")
    expectRefused(await browser.request(url.href), refusals, "InvalidCheck", url)
  })

  test("PKCE verifier of another sign-in: the provider refuses the code", async () => {
    const { config, refusals } = setup()
    const a = await flow(config)
    const b = new Browser(config)
    await b.startSignIn("local")
    a.browser.jar.set("tessera.pkce.code_verifier", b.jar.get("tessera.pkce.code_verifier")!)
    const response = await a.browser.request(a.url.href)
    expectRefused(response, refusals, "OAuthCallbackError", a.url)
    expect(refusals.at(-1)?.message).toContain("invalid_grant")
  })

  test("PKCE verifier cookie tampered with", async () => {
    const { config, refusals } = setup()
    const { browser, url } = await flow(config)
    const value = browser.jar.get("tessera.pkce.code_verifier")!
    browser.jar.set(
      "tessera.pkce.code_verifier",
      `${value.slice(0, -4)}${value.endsWith("AAAA") ? "BBBB" : "AAAA"}`,
    )
    expectRefused(await browser.request(url.href), refusals, "InvalidCheck", url)
  })

  test("one check cookie cannot stand in for another (the cookie name is part of the key)", async () => {
    const { config, refusals } = setup()
    const { browser, url } = await flow(config)
    browser.jar.set("tessera.pkce.code_verifier", browser.jar.get("tessera.nonce")!)
    expectRefused(await browser.request(url.href), refusals, "InvalidCheck", url)
  })

  test("nonce cookie missing", async () => {
    const { config, refusals } = setup()
    const { browser, url } = await flow(config)
    browser.jar.delete("tessera.nonce")
    expectRefused(await browser.request(url.href), refusals, "InvalidCheck", url)
  })

  test("nonce of another sign-in: the ID Token's nonce does not match", async () => {
    const { config, refusals } = setup()
    const a = await flow(config)
    const b = new Browser(config)
    await b.startSignIn("local")
    a.browser.jar.set("tessera.nonce", b.jar.get("tessera.nonce")!)
    expectRefused(await a.browser.request(a.url.href), refusals, "InvalidCheck", a.url)
    expect(refusals.at(-1)?.message).toContain("nonce")
  })

  test("a replayed authorization code is refused", async () => {
    const { config, refusals } = setup()
    const { browser, url, cookies } = await flow(config)
    const first = await browser.request(url.href)
    expect(setsSession(first)).toBe(true)
    // The same callback again, with the cookies as they were before the first use.
    const replay = new Browser(config)
    for (const [k, v] of cookies) replay.jar.set(k, v)
    const response = await replay.request(url.href)
    expectRefused(response, refusals, "OAuthCallbackError", url)
    expect(refusals.at(-1)?.message).toContain("invalid_grant")
  })

  test("the check cookies are cleared by the first callback, so a second visit fails on them", async () => {
    const { config, refusals } = setup()
    const { browser, url } = await flow(config)
    expect(setsSession(await browser.request(url.href))).toBe(true)
    const again = await browser.request(url.href)
    expectRefused(again, refusals, "InvalidCheck", url)
  })
})
