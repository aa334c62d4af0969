/** Coinbase (OAuth 2.0): scopes in the authorization URL, the user under `data`, no flag. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Coinbase from "@tessera/core/providers/coinbase"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: string, name: string | null, extra: Record<string, unknown> = {}) => ({
  data: {
    id,
    name,
    username: null,
    profile_location: null,
    profile_bio: null,
    profile_url: null,
    avatar_url: `https://images.coinbase.example/avatars/${id}.png`,
    resource: "user",
    resource_path: "/v2/user",
    ...extra,
  },
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Coinbase,
  authorization: {
    url: "https://login.coinbase.com/oauth2/auth",
    scope: "wallet:user:email wallet:user:read",
    checks: ["pkce", "state"],
  },
  token: { url: "https://login.coinbase.com/oauth2/token", clientAuth: "client_secret_basic" },
  resources: [profileAt("https://api.coinbase.com/v2/user")],
  identities: {
    verified: {
      sub: "ada",
      profile: user("9da7a204-544e-5fd1-9a12-61176c5d4cd8", "Ada Coinbase", {
        email: "ada@coinbase.example",
      }),
      expect: {
        user: {
          id: "9da7a204-544e-5fd1-9a12-61176c5d4cd8",
          name: "Ada Coinbase",
          email: "ada@coinbase.example",
          image: "https://images.coinbase.example/avatars/9da7a204-544e-5fd1-9a12-61176c5d4cd8.png",
        },
        // Coinbase sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: user("1f2e3d4c-0000-5fd1-9a12-61176c5d4cd8", null, { username: "bob" }),
      expect: {
        user: {
          id: "1f2e3d4c-0000-5fd1-9a12-61176c5d4cd8",
          name: "bob",
          email: null,
          image: "https://images.coinbase.example/avatars/1f2e3d4c-0000-5fd1-9a12-61176c5d4cd8.png",
        },
        verifiedEmail: null,
      },
    },
  },
})

test("the profile is read with the access token as a bearer token", async () => {
  await suite.signIn("ada")
  const request = suite.standIn.requestsTo("https://api.coinbase.com/v2/user").at(-1)!
  expect(request.headers.get("authorization")).toMatch(/^Bearer at-/)
})
