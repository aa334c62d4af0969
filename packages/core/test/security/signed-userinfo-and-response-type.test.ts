/**
 * Two trust boundaries of the OAuth flow touched by providers that sign their
 * userinfo (BankID) or name the code flow otherwise (Azure DevOps):
 *
 * - a signed userinfo response (`userinfo_signed_response_alg`) is trusted for
 *   its signature: one signed with a key the issuer does not publish, with the
 *   client secret when the issuer signs with keys, or not at all, signs nobody in
 *   (oauth4webapi checks the JWT's claims, Tessera its signature);
 * - `response_type` comes from the provider's configuration, never from the
 *   query of the sign-in request, which an attacker can craft (switching a
 *   victim's sign-in to a token-in-the-URL flow).
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { Browser as AppBrowser } from "../harness/index.js"
import { issuerOn, StandIn, type FakeIssuer } from "../harness/stand-in.js"
import { base64urlJson, hmacJwt, recordingLogger, SECRET } from "../harness/index.js"

let standIn: StandIn
let issuer: FakeIssuer
/** How the next userinfo response is signed. */
let signing: "issuer" | "stranger" | "hmac" | "none" = "issuer"

beforeAll(async () => {
  standIn = await StandIn.start()
  const base = `${standIn.origin}/idp`
  issuer = await issuerOn(standIn, {
    userinfoEndpoint: `${base}/userinfo`,
    metadata: { userinfo_signing_alg_values_supported: ["RS256", "HS256"] },
    async userinfo(record) {
      const claims = {
        iss: base,
        aud: "client-1",
        sub: record.sub,
        name: "Ada",
        email: "a@x.example",
      }
      const jwt =
        signing === "none"
          ? `${base64urlJson({ alg: "none" })}.${base64urlJson(claims)}.`
          : signing === "hmac"
            ? await hmacJwt(claims, "client-1-secret")
            : await issuer.idToken(
                claims,
                signing === "stranger" ? { key: issuer.strangerKey } : {},
              )
      return new Response(jwt, { headers: { "content-type": "application/jwt" } })
    },
  })
})
afterAll(() => standIn?.stop())

function app(alg: "RS256" | "HS256" = "RS256") {
  const { logger, errors } = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger,
    providers: [
      {
        id: "idp",
        name: "IdP",
        type: "oidc",
        issuer: issuer.issuer,
        clientId: "client-1",
        clientSecret: "client-1-secret",
        idToken: false,
        client: { userinfo_signed_response_alg: alg },
        dangerouslyAllowInsecureHttpRequests: true,
      },
    ],
  }
  return { browser: new AppBrowser(config, "http://localhost:3000"), errors }
}

async function signIn(alg: "RS256" | "HS256" = "RS256") {
  const { browser, errors } = app(alg)
  const start = await browser.startSignIn("idp")
  const done = await browser.request(issuer.authorize(start.headers.get("location")!, "ada").href)
  return { done, session: await browser.session(), errors }
}

test("a userinfo JWT signed with the issuer's key signs in", async () => {
  signing = "issuer"
  const { session } = await signIn()
  expect(session?.user?.name).toBe("Ada")
})

test("a userinfo JWT signed with a key the issuer does not publish signs nobody in", async () => {
  signing = "stranger"
  const { done, session } = await signIn()
  expect(done.headers.get("location")).toContain("error=OAuthCallbackError")
  expect(session).toBeNull()
})

test("an unsigned userinfo JWT signs nobody in", async () => {
  signing = "none"
  const { session } = await signIn()
  expect(session).toBeNull()
})

test("an HS256 userinfo JWT counts only where the client expects HS256", async () => {
  signing = "hmac"
  expect((await signIn("RS256")).session).toBeNull()
  expect((await signIn("HS256")).session?.user?.name).toBe("Ada")
})

test("the sign-in request's query cannot change response_type", async () => {
  const { browser } = app()
  const start = await browser.startSignIn("idp", {
    query: { response_type: "token", response_mode: "fragment" },
  })
  const location = new URL(start.headers.get("location")!)
  expect(location.searchParams.get("response_type")).toBe("code")
  expect(location.searchParams.has("response_mode")).toBe(false)
})
