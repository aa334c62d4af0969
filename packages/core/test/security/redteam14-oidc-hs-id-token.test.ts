/**
 * A symmetric (`HS*`) ID Token or signed userinfo is keyed with the client secret, which the
 * client sends with every token request and which many deployments share between apps. An issuer
 * whose discovery lists `HS256` among `id_token_signing_alg_values_supported` (Keycloak and Auth0
 * do) says what it can do for some client, not what it does for this one (OpenID Connect Core
 * §3.1.3.7: RS256 unless the client registered another). So an `HS*` ID Token (or userinfo JWT)
 * counts only when the provider's `client.id_token_signed_response_alg` (or
 * `client.userinfo_signed_response_alg`) asks for it; otherwise whoever knows the client secret
 * could mint an ID Token for any `sub` and have it accepted at the callback.
 *
 * Before the fix, with discovery listing HS256 and no client algorithm, the HS256 ID Token signed
 * with the client secret signed the user in (oauth4webapi takes the issuer's list, and Tessera
 * checked the MAC with the secret). Auth.js 0.41.3 accepts it too (it checks no ID Token
 * signature at all): the migration guide lists this as stricter.
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { Browser, hmacJwt, recordingLogger, SECRET, setsSession } from "../harness/index.js"
import { issuerOn, StandIn, type FakeIssuer } from "../harness/stand-in.js"

const CLIENT_SECRET = "client-1-secret-that-is-long-enough-for-hs256"
let standIn: StandIn
let issuer: FakeIssuer
/** How the token endpoint's ID Token and the userinfo JWT are signed for the current test. */
let signing: { idToken: "RS256" | "HS256"; userinfo: "RS256" | "HS256" | "json" }

beforeAll(async () => {
  standIn = await StandIn.start()
  const base = `${standIn.origin}/idp`
  issuer = await issuerOn(standIn, {
    clientSecret: CLIENT_SECRET,
    userinfoEndpoint: `${base}/userinfo`,
    // What Keycloak and Auth0 publish: HS256 is among what they can sign with.
    metadata: {
      id_token_signing_alg_values_supported: ["RS256", "HS256"],
      userinfo_signing_alg_values_supported: ["RS256", "HS256"],
    },
    async tokenResponse(record, issuer) {
      const claims = { ...issuer.defaultIdTokenClaims(record), name: "Ada" }
      return {
        access_token: `at-${crypto.randomUUID()}`,
        token_type: "Bearer",
        expires_in: 600,
        id_token:
          signing.idToken === "HS256"
            ? await hmacJwt(claims, CLIENT_SECRET)
            : await issuer.idToken(claims),
      }
    },
    async userinfo(record) {
      const claims = { iss: base, aud: "client-1", sub: record.sub, name: "Ada" }
      if (signing.userinfo === "json") return Response.json(claims)
      const jwt =
        signing.userinfo === "HS256"
          ? await hmacJwt(claims, CLIENT_SECRET)
          : await issuer.idToken(claims)
      return new Response(jwt, { headers: { "content-type": "application/jwt" } })
    },
  })
})
afterAll(() => standIn?.stop())

/** `fromUserinfo`: the profile comes from the userinfo endpoint (`idToken: false`). */
async function signIn(client: Record<string, string> = {}, fromUserinfo = false) {
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    providers: [
      {
        id: "idp",
        name: "IdP",
        type: "oidc",
        issuer: issuer.issuer,
        clientId: "client-1",
        clientSecret: CLIENT_SECRET,
        client,
        ...(fromUserinfo ? { idToken: false } : {}),
        dangerouslyAllowInsecureHttpRequests: true,
      },
    ],
  }
  const browser = new Browser(config)
  const start = await browser.startSignIn("idp")
  // The attacker's chosen identity: whoever holds the secret picks the `sub`.
  const back = await browser.request(
    issuer.authorize(start.headers.get("location")!, "victim").href,
  )
  return { back, session: await browser.session(), errors: log.errors }
}

test("an HS256 ID Token is refused when the client registered no algorithm, though discovery lists HS256", async () => {
  signing = { idToken: "HS256", userinfo: "json" }
  const { back, session, errors } = await signIn()
  expect(back.headers.get("location")).toContain("error=OAuthCallbackError")
  expect(setsSession(back)).toBe(false)
  expect(session).toBeNull()
  expect(errors.at(-1)?.message).toMatch(/HS256/)
})

test("an HS256 ID Token is refused when the client registered an asymmetric algorithm", async () => {
  signing = { idToken: "HS256", userinfo: "json" }
  const { session } = await signIn({ id_token_signed_response_alg: "RS256" })
  expect(session).toBeNull()
})

test("an HS256 ID Token signs in when the client registered HS256", async () => {
  signing = { idToken: "HS256", userinfo: "json" }
  const { session } = await signIn({ id_token_signed_response_alg: "HS256" })
  expect(session?.user?.name).toBe("Ada")
})

test("RS256 ID Tokens and userinfo JWTs still sign in with discovery listing HS256 too", async () => {
  signing = { idToken: "RS256", userinfo: "json" }
  expect((await signIn()).session?.user?.name).toBe("Ada")
  signing = { idToken: "RS256", userinfo: "RS256" }
  expect((await signIn({}, true)).session?.user?.name).toBe("Ada")
})

test("an HS256 userinfo JWT is refused when the client registered no userinfo algorithm", async () => {
  signing = { idToken: "RS256", userinfo: "HS256" }
  const { back, session } = await signIn({}, true)
  expect(back.headers.get("location")).toContain("error=OAuthCallbackError")
  expect(session).toBeNull()
})

test("an HS256 userinfo JWT counts when the client registered HS256 for userinfo", async () => {
  signing = { idToken: "RS256", userinfo: "HS256" }
  const { session } = await signIn({ userinfo_signed_response_alg: "HS256" }, true)
  expect(session?.user?.name).toBe("Ada")
})
