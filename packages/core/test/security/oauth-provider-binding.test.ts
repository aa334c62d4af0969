/**
 * Mix-up across providers: the browser started a sign-in with one provider, and
 * the authorization response (code and state) is delivered to another
 * provider's callback (an attacker's provider, or a link crafted for it). That
 * callback must refuse: otherwise it would send the first provider's code, and
 * the PKCE verifier made for it, to the other provider's token endpoint. The
 * check cookies name the provider they were made for (as Auth.js binds them).
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { Browser, SECRET, recordingLogger } from "../harness/index.js"
import { issuerOn, StandIn, type FakeIssuer } from "../harness/stand-in.js"

let standIn: StandIn
let issuer: FakeIssuer
beforeAll(async () => {
  standIn = await StandIn.start()
  issuer = await issuerOn(standIn)
})
afterAll(() => standIn?.stop())

function app() {
  const log = recordingLogger()
  const other = `${standIn.origin}/other`
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    debug: true,
    logger: log.logger,
    providers: [
      {
        id: "idp",
        name: "IdP",
        type: "oidc",
        issuer: issuer.issuer,
        clientId: "client-1",
        clientSecret: "client-1-secret",
        dangerouslyAllowInsecureHttpRequests: true,
      },
      {
        id: "other",
        name: "Other",
        type: "oauth",
        authorization: `${other}/authorize`,
        token: `${other}/token`,
        userinfo: `${other}/me`,
        clientId: "other-client",
        clientSecret: "other-secret",
        dangerouslyAllowInsecureHttpRequests: true,
      },
    ],
  }
  return { config, log, otherToken: `${other}/token` }
}

test.each([[["pkce"]], [["pkce", "state"]], [["state"]]])(
  "checks %j: a response for the sign-in started with one provider is refused on another's callback, its code sent nowhere",
  async (checks) => {
    const { config, log, otherToken } = app()
    for (const provider of config.providers as Array<{ checks?: string[] }>)
      provider.checks = checks
    const browser = new Browser(config)
    const start = await browser.startSignIn("idp")
    const callback = issuer.authorize(new URL(start.headers.get("location")!), "victim")
    const code = callback.searchParams.get("code")!

    const misdelivered = new URL(`/auth/callback/other${callback.search}`, browser.origin)
    const response = await browser.request(misdelivered.href)

    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
      "OAuthCallbackError",
    )
    expect(standIn.requestsTo(otherToken)).toEqual([])
    expect(log.refusals.map((e) => e.message).join("\n")).toMatch(/another provider/)
    expect(JSON.stringify(log.logged)).not.toContain(code)
  },
)

test("the same response on its own provider's callback signs in", async () => {
  const { config } = app()
  const browser = new Browser(config)
  const start = await browser.startSignIn("idp")
  await browser.request(issuer.authorize(new URL(start.headers.get("location")!), "ada").href)
  expect((await browser.session())?.user).toBeDefined()
})
