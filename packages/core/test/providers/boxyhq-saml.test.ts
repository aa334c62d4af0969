/**
 * BoxyHQ SAML Jackson (OAuth 2.0 in front of SAML): endpoints under the
 * issuer, `provider=saml`, the tenant and product as sign-in parameters.
 */
import { expect, test } from "vitest"
import { AppBrowser, json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import BoxyHQSAML from "@tessera/core/providers/boxyhq-saml"
import { configFor, ORIGIN, profileAt, type ProfileIdentity } from "./helpers.js"

const issuer = "https://jackson.acme.example"
const samlUser = (id: string, email: string, first?: string, last?: string) => ({
  id,
  email,
  ...(first ? { firstName: first } : {}),
  ...(last ? { lastName: last } : {}),
  roles: [],
  groups: [],
  raw: { "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress": email },
  requested: { tenant: "acme.example", product: "tessera", client_id: "dummy" },
})

runProviderTests<ProfileIdentity>({
  provider: BoxyHQSAML,
  clientId: "dummy",
  options: { issuer },
  authorization: {
    url: `${issuer}/api/oauth/authorize`,
    scope: null,
    checks: ["pkce", "state"],
    params: { provider: "saml" },
  },
  token: {
    url: `${issuer}/api/oauth/token`,
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      expires_in: 300,
    }),
    error: () => json({ error: "Invalid code" }, 403),
  },
  resources: [profileAt(`${issuer}/api/oauth/userinfo`)],
  identities: {
    verified: {
      sub: "ada",
      profile: samlUser("ada@acme.example", "ada@acme.example", "Ada", "Lovelace"),
      expect: {
        user: {
          id: "ada@acme.example",
          name: "Ada Lovelace",
          email: "ada@acme.example",
          image: null,
        },
        // The customer's identity provider asserted it; nobody says it was verified.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: samlUser("bob-nameid", "bob@acme.example"),
      expect: {
        user: { id: "bob-nameid", name: null, email: "bob@acme.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("a trailing slash on the issuer is not doubled in the endpoints", () => {
  const provider = BoxyHQSAML({ issuer: `${issuer}/` })
  expect(provider.token).toBe(`${issuer}/api/oauth/token`)
  expect(provider.userinfo).toBe(`${issuer}/api/oauth/userinfo`)
})

test("with no issuer the configuration is refused at start, saying what is missing", async () => {
  const setup = configFor(BoxyHQSAML({ clientId: "dummy", clientSecret: "s" }))
  const response = await new AppBrowser(setup.config, ORIGIN).startSignIn("boxyhq-saml")
  expect(response.status).toBe(500)
  expect(setup.errors.map((e) => e.message).join()).toMatch(/needs an issuer/)
})
