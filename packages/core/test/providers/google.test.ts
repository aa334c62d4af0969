/** Google (OpenID Connect) against a stand-in of accounts.google.com and its JWKS. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Google from "@tessera/core/providers/google"

const suite = runProviderTests({
  provider: Google,
  clientId: "google-client.apps.googleusercontent.com",
  clientSecret: "GOCSPX-secret",
  issuer: {
    url: "https://accounts.google.com",
    jwksUri: "https://www.googleapis.com/oauth2/v3/certs",
    metadata: { userinfo_endpoint: "https://openidconnect.googleapis.com/v1/userinfo" },
  },
  authorization: {
    url: "https://accounts.google.com/o/oauth2/v2/auth",
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: "https://oauth2.googleapis.com/token", clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "108000000000000000001",
      claims: {
        azp: "google-client.apps.googleusercontent.com",
        email: "ada@gmail.example",
        email_verified: true,
        name: "Ada Google",
        given_name: "Ada",
        family_name: "Google",
        picture: "https://lh3.googleusercontent.example/a/ada",
        hd: "acme.example",
      },
      expect: {
        user: {
          id: "108000000000000000001",
          name: "Ada Google",
          email: "ada@gmail.example",
          image: "https://lh3.googleusercontent.example/a/ada",
        },
        verifiedEmail: "ada@gmail.example",
      },
    },
    unverified: {
      sub: "108000000000000000002",
      claims: { email: "bob@custom.example", email_verified: false, name: "Bob" },
      expect: {
        user: {
          id: "108000000000000000002",
          name: "Bob",
          email: "bob@custom.example",
          image: null,
        },
        verifiedEmail: null,
      },
    },
  },
})

test("authorization params pass through; hd is kept in the profile", async () => {
  const { location, seen } = await suite.signIn("108000000000000000001", {
    options: { authorization: { params: { access_type: "offline", prompt: "consent" } } },
  })
  expect(location.searchParams.get("access_type")).toBe("offline")
  expect(location.searchParams.get("prompt")).toBe("consent")
  expect(location.searchParams.get("scope")).toBe("openid profile email")
  expect(seen.profile).toMatchObject({ hd: "acme.example", email_verified: true })
})
