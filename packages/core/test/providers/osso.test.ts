/** Osso (OAuth 2.0, SAML bridged): endpoints under the instance, `domain` at sign-in, no vouched-for e-mail. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Osso from "@tessera/core/providers/osso"
import { profileAt, signInFromEnv, type ProfileIdentity } from "./helpers.js"

const instance = "https://osso.acme.example"

const suite = runProviderTests<ProfileIdentity>({
  provider: Osso,
  // Auth.js's documented form of the issuer ends with a slash.
  options: { issuer: `${instance}/` },
  authorization: { url: `${instance}/oauth/authorize`, scope: null, checks: ["pkce", "state"] },
  token: {
    url: `${instance}/oauth/token`,
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 600,
      created_at: 1_700_000_000,
    }),
  },
  resources: [profileAt(`${instance}/oauth/me`)],
  identities: {
    verified: {
      sub: "ada",
      profile: {
        id: "b4a8e3b6-2cd0-4c4d-b8a0-6a3f1c1b2e10",
        email: "ada@customer.example",
        idp: "OKTA",
        requested: { domain: "customer.example" },
      },
      expect: {
        user: {
          id: "b4a8e3b6-2cd0-4c4d-b8a0-6a3f1c1b2e10",
          name: null,
          email: "ada@customer.example",
          image: null,
        },
        // The customer's SAML IdP asserts the address; Osso does not verify it.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: { id: "0c1d", email: "bob@customer.example", idp: "AZURE" },
      expect: {
        user: { id: "0c1d", name: null, email: "bob@customer.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the customer's domain chosen at sign-in goes to Osso's authorization endpoint", async () => {
  const { location } = await suite.signIn("ada", {
    options: { authorization: { params: { domain: "customer.example" } } },
  })
  expect(location.searchParams.get("domain")).toBe("customer.example")
  expect(`${location.origin}${location.pathname}`).toBe(`${instance}/oauth/authorize`)
})

test("AUTH_OSSO_ISSUER makes the endpoints of the factory form", async () => {
  const env = {
    AUTH_OSSO_ID: suite.clientId,
    AUTH_OSSO_SECRET: suite.clientSecret,
    AUTH_OSSO_ISSUER: instance,
  }
  const { session } = await signInFromEnv(suite, Osso, env, "ada")
  expect(session?.user.email).toBe("ada@customer.example")
})
