/** Roblox (OpenID Connect): a trailing-slash issuer, `openid profile`, PKCE + state, no address. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Roblox from "@tessera/core/providers/roblox"

const issuer = "https://apis.roblox.com/oauth/"

const claims = (name: string, username: string) => ({
  name,
  nickname: name,
  preferred_username: username,
  created_at: 1584682495,
  profile: `https://www.roblox.example/users/${username}/profile`,
  picture: `https://tr.rbxcdn.example/${username}.png`,
})

const suite = runProviderTests({
  provider: Roblox,
  issuer: { url: issuer, jwksUri: "https://apis.roblox.com/oauth/v1/certs" },
  authorization: {
    url: "https://apis.roblox.com/oauth/v1/authorize",
    scope: "openid profile",
    checks: ["pkce", "state"],
  },
  token: { url: "https://apis.roblox.com/oauth/v1/token", clientAuth: "client_secret_basic" },
  identities: {
    // Roblox shares no e-mail address: nobody's is vouched for.
    verified: {
      sub: "1516563360",
      claims: claims("Ada Builder", "ada_builds"),
      expect: {
        user: {
          id: "1516563360",
          name: "Ada Builder",
          email: null,
          image: "https://tr.rbxcdn.example/ada_builds.png",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "1516563361",
      claims: { ...claims("", "bob"), nickname: "", picture: null },
      expect: {
        user: { id: "1516563361", name: "bob", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the ID Token's iss is the issuer with its trailing slash", async () => {
  const { session } = await suite.signIn("1516563360")
  expect(session?.user.name).toBe("Ada Builder")
  const discovery = suite.standIn.requestsTo(`${issuer}.well-known/openid-configuration`)
  expect(discovery.length).toBeGreaterThan(0)
})
