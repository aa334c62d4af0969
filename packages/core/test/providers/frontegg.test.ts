/** Frontegg (OpenID Connect): metadata under /oauth, the issuer from the app, profilePictureUrl. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Frontegg from "@tessera/core/providers/frontegg"
import { signInFromEnv } from "./helpers.js"

const issuer = "https://acme.frontegg.example"

const suite = runProviderTests({
  provider: Frontegg,
  options: { issuer },
  issuer: {
    url: issuer,
    jwksUri: `${issuer}/.well-known/jwks.json`,
    wellKnown: `${issuer}/oauth/.well-known/openid-configuration`,
  },
  authorization: {
    url: `${issuer}/oauth/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${issuer}/oauth/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "7f2f5d4e-0b0a-4c3c-9d2d-000000000001",
      claims: {
        name: "Ada Lovelace",
        email: "ada@frontegg.example",
        email_verified: true,
        profilePictureUrl: "https://www.gravatar.example/avatar/ada",
        roles: ["Admin"],
        tenantId: "tenant-1",
      },
      expect: {
        user: {
          id: "7f2f5d4e-0b0a-4c3c-9d2d-000000000001",
          name: "Ada Lovelace",
          email: "ada@frontegg.example",
          image: "https://www.gravatar.example/avatar/ada",
        },
        verifiedEmail: "ada@frontegg.example",
      },
    },
    unverified: {
      sub: "7f2f5d4e-0b0a-4c3c-9d2d-000000000002",
      claims: { name: "Bob", email: "bob@frontegg.example", email_verified: false },
      expect: {
        user: {
          id: "7f2f5d4e-0b0a-4c3c-9d2d-000000000002",
          name: "Bob",
          email: "bob@frontegg.example",
          image: null,
        },
        verifiedEmail: null,
      },
    },
  },
})

test("the metadata is read under /oauth; a trailing slash on the issuer changes nothing", async () => {
  const { session } = await suite.signIn("7f2f5d4e-0b0a-4c3c-9d2d-000000000001", {
    options: { issuer: `${issuer}/` },
  })
  expect(session.user.email).toBe("ada@frontegg.example")
  const wellKnown = suite.standIn.requestsTo(`${issuer}/oauth/.well-known/openid-configuration`)
  expect(wellKnown.length).toBeGreaterThan(0)
  expect(suite.standIn.requestsTo(`${issuer}/.well-known/openid-configuration`)).toEqual([])
})

test("AUTH_FRONTEGG_ID, _SECRET and _ISSUER configure `providers: [Frontegg]`", async () => {
  const env = {
    AUTH_FRONTEGG_ID: suite.clientId,
    AUTH_FRONTEGG_SECRET: suite.clientSecret,
    AUTH_FRONTEGG_ISSUER: issuer,
  }
  const { session } = await signInFromEnv(
    suite,
    Frontegg,
    env,
    "7f2f5d4e-0b0a-4c3c-9d2d-000000000001",
  )
  expect(session.user.email).toBe("ada@frontegg.example")
})
