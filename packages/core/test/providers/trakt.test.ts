/** Trakt (OAuth 2.0): the API version and client id headers on /users/me, the slug as the id. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Trakt from "@tessera/core/providers/trakt"
import type { ProfileIdentity } from "./helpers.js"

const user = (slug: string, name: string | null) => ({
  username: slug,
  private: false,
  name,
  vip: false,
  vip_ep: false,
  ids: { slug },
  joined_at: "2014-09-01T09:10:11.000Z",
  location: null,
  about: null,
  gender: null,
  age: null,
  images: { avatar: { full: `https://walter-r2.trakt.example/images/users/${slug}.jpg` } },
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Trakt,
  authorization: {
    url: "https://trakt.tv/oauth/authorize",
    scope: null,
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://api.trakt.tv/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, refreshToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      expires_in: 7_776_000,
      refresh_token: refreshToken,
      scope: "public",
      created_at: 1_700_000_000,
    }),
  },
  resources: [
    {
      url: "https://api.trakt.tv/users/me",
      response: ({ identity, request }) => {
        expect(request.url.searchParams.get("extended")).toBe("full")
        expect(request.headers.get("trakt-api-version")).toBe("2")
        expect(request.headers.get("trakt-api-key")).toBe("tessera-test-client")
        return identity.profile
      },
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      profile: user("ada-watches", "Ada Trakt"),
      expect: {
        user: {
          id: "ada-watches",
          name: "Ada Trakt",
          email: null,
          image: "https://walter-r2.trakt.example/images/users/ada-watches.jpg",
        },
        // Trakt shares no address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: user("bob", null),
      expect: {
        user: {
          id: "bob",
          name: "bob",
          email: null,
          image: "https://walter-r2.trakt.example/images/users/bob.jpg",
        },
        verifiedEmail: null,
      },
    },
  },
})

test("/users/me is asked with the version and client id headers and the token", async () => {
  await suite.signIn("ada")
  const request = suite.standIn.requestsTo("https://api.trakt.tv/users/me").at(-1)!
  expect(request.headers.get("trakt-api-key")).toBe(suite.clientId)
  expect(request.headers.get("authorization")).toMatch(/^Bearer at-/)
})
