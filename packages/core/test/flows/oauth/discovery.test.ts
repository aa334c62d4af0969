/**
 * The authorization server's metadata is cached on the resolved configuration (issue 10: caches
 * with an owner), not in module scope: two configurations that name the same issuer each discover
 * it through their own provider's fetch, and neither sees the other's document.
 */
import { expect, test } from "vitest"
import { customFetch } from "@tessera/core"
import { Browser } from "../../harness/browser.js"
import { makeConfig } from "../../harness/config.js"

const ISSUER = "https://shared-issuer.example"

/** An issuer whose discovery document names `authorize` as its authorization endpoint. */
function issuerAt(authorize: string) {
  const requests: string[] = []
  const fetch = async (input: RequestInfo | URL) => {
    const url = String(input instanceof Request ? input.url : input)
    requests.push(url)
    if (url !== `${ISSUER}/.well-known/openid-configuration`)
      return new Response(null, { status: 404 })
    return Response.json({
      issuer: ISSUER,
      authorization_endpoint: authorize,
      token_endpoint: `${ISSUER}/token`,
      jwks_uri: `${ISSUER}/jwks`,
      response_types_supported: ["code"],
    })
  }
  return { fetch, requests }
}

function appWith(issuer: ReturnType<typeof issuerAt>) {
  const { config } = makeConfig({
    providers: [
      {
        id: "acme",
        name: "Acme",
        type: "oidc",
        issuer: ISSUER,
        clientId: "client",
        clientSecret: "secret",
        [customFetch]: issuer.fetch,
      },
    ],
  })
  return new Browser(config)
}

test("two configurations naming the same issuer each use their own discovery", async () => {
  const first = issuerAt("https://shared-issuer.example/first/authorize")
  const second = issuerAt("https://shared-issuer.example/second/authorize")

  const one = await appWith(first).startSignIn("acme")
  expect(one.status).toBe(302)
  expect(one.headers.get("location")).toMatch(
    /^https:\/\/shared-issuer\.example\/first\/authorize\?/,
  )

  const two = await appWith(second).startSignIn("acme")
  expect(two.status).toBe(302)
  expect(two.headers.get("location")).toMatch(
    /^https:\/\/shared-issuer\.example\/second\/authorize\?/,
  )
  expect(second.requests).toContain(`${ISSUER}/.well-known/openid-configuration`)
})

test("one configuration discovers its issuer once", async () => {
  const issuer = issuerAt("https://shared-issuer.example/once/authorize")
  const app = appWith(issuer)
  await app.startSignIn("acme")
  await app.startSignIn("acme")
  const discoveries = issuer.requests.filter((url) => url.endsWith("/openid-configuration"))
  expect(discoveries).toHaveLength(1)
})
