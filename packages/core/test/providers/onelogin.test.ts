/** OneLogin (OpenID Connect): the issuer under /oidc/2, given with or without it. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import OneLogin from "@tessera/core/providers/onelogin"
import { signInFromEnv, standardOidcIdentities } from "./helpers.js"

const account = "https://acme.onelogin.example"
const issuer = `${account}/oidc/2`

const suite = runProviderTests({
  provider: OneLogin,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/certs` },
  authorization: {
    url: `${issuer}/auth`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${issuer}/token`, clientAuth: "client_secret_basic" },
  identities: standardOidcIdentities("onelogin.example", { preferred_username: "user" }),
})

test("the account's URL without /oidc/2 (Auth.js's form) finds the same issuer", async () => {
  const { session } = await suite.signIn("ada-subject", { options: { issuer: `${account}/` } })
  expect(session.user.email).toBe("ada@onelogin.example")
  expect(
    suite.standIn.requestsTo(`${issuer}/.well-known/openid-configuration`).length,
  ).toBeGreaterThan(0)
  expect(suite.standIn.requestsTo(`${account}/.well-known/openid-configuration`)).toEqual([])
})

test("AUTH_ONELOGIN_ID, _SECRET and _ISSUER configure `providers: [OneLogin]`", async () => {
  const env = {
    AUTH_ONELOGIN_ID: suite.clientId,
    AUTH_ONELOGIN_SECRET: suite.clientSecret,
    AUTH_ONELOGIN_ISSUER: account,
  }
  const { session } = await signInFromEnv(suite, OneLogin, env, "ada-subject")
  expect(session.user.email).toBe("ada@onelogin.example")
})
