/** Vipps MobilePay (OpenID Connect): the profile from userinfo (`idToken: false`), PKCE + state + nonce. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Vipps from "@tessera/core/providers/vipps"
import type { ProfileIdentity } from "./helpers.js"

const issuer = "https://api.vipps.no/access-management-1.0/access/"
const userinfo = "https://api.vipps.no/vipps-userinfo-api/userinfo/"

const suite = runProviderTests<ProfileIdentity>({
  provider: Vipps,
  issuer: {
    url: issuer,
    jwksUri: "https://api.vipps.no/access-management-1.0/access/.well-known/jwks.json",
    metadata: { userinfo_endpoint: userinfo },
  },
  authorization: {
    url: "https://api.vipps.no/access-management-1.0/access/oauth2/auth",
    scope: "openid name email",
    checks: ["pkce", "state", "nonce"],
  },
  token: {
    url: "https://api.vipps.no/access-management-1.0/access/oauth2/token",
    clientAuth: "client_secret_basic",
  },
  resources: [
    {
      url: userinfo,
      response: ({ identity }) => ({ sub: identity.sub, ...identity.profile }),
    },
  ],
  identities: {
    verified: {
      sub: "c06c4afe-d9e1-4c5d-939a-177d752a0944",
      profile: {
        sid: "7d78a726-af92-499e-b857-de263ef9a969",
        name: "Ada Nordmann",
        given_name: "Ada",
        family_name: "Nordmann",
        email: "ada@vipps.example",
        email_verified: true,
      },
      expect: {
        user: {
          id: "c06c4afe-d9e1-4c5d-939a-177d752a0944",
          name: "Ada Nordmann",
          email: "ada@vipps.example",
          image: null,
        },
        verifiedEmail: "ada@vipps.example",
      },
    },
    unverified: {
      sub: "5f0c8a1e-0000-4bob-8000-000000000002",
      profile: { name: "Bob Nordmann", email: "bob@vipps.example", email_verified: false },
      expect: {
        user: {
          id: "5f0c8a1e-0000-4bob-8000-000000000002",
          name: "Bob Nordmann",
          email: "bob@vipps.example",
          image: null,
        },
        verifiedEmail: null,
      },
    },
  },
})

test("the profile is read from userinfo with the access token, not taken from the ID Token", async () => {
  const { session, seen } = await suite.signIn("c06c4afe-d9e1-4c5d-939a-177d752a0944")
  expect(session?.user.email).toBe("ada@vipps.example")
  expect(seen.profile.email_verified).toBe(true)
  expect(suite.standIn.requestsTo(userinfo).length).toBeGreaterThan(0)
})
