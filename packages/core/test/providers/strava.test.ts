/** Strava: comma scopes, approval_prompt, secret in the body, the athlete in the token response. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Strava from "@tessera/core/providers/strava"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const athlete = (id: number, first: string, last: string) => ({
  id,
  username: first.toLowerCase(),
  resource_state: 2,
  firstname: first,
  lastname: last,
  city: "San Francisco",
  state: "CA",
  country: "US",
  sex: "F",
  premium: true,
  created_at: "2017-11-14T02:30:05Z",
  updated_at: "2018-02-06T19:32:20Z",
  profile: `https://dgalywyr863hv.cloudfront.example/pictures/athletes/${id}/large.jpg`,
  profile_medium: `https://dgalywyr863hv.cloudfront.example/pictures/athletes/${id}/medium.jpg`,
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Strava,
  authorization: {
    url: "https://www.strava.com/api/v3/oauth/authorize",
    scope: "read",
    checks: ["pkce", "state"],
    params: { approval_prompt: "auto" },
  },
  token: {
    url: "https://www.strava.com/api/v3/oauth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, refreshToken, identity }) => ({
      token_type: "Bearer",
      expires_at: Math.floor(Date.now() / 1000) + 21600,
      expires_in: 21600,
      refresh_token: refreshToken,
      access_token: accessToken,
      athlete: identity.profile,
    }),
  },
  resources: [profileAt("https://www.strava.com/api/v3/athlete")],
  identities: {
    verified: {
      sub: "ada",
      profile: athlete(134815, "Ada", "Strava"),
      expect: {
        user: {
          id: "134815",
          name: "Ada Strava",
          email: null,
          image: "https://dgalywyr863hv.cloudfront.example/pictures/athletes/134815/large.jpg",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: athlete(227615, "Bob", ""),
      expect: {
        user: {
          id: "227615",
          name: "Bob",
          email: null,
          image: "https://dgalywyr863hv.cloudfront.example/pictures/athletes/227615/large.jpg",
        },
        verifiedEmail: null,
      },
    },
  },
})

test("scopes are comma-separated; the callback's granted scope is accepted", async () => {
  const { location, session } = await suite.signIn("ada", {
    options: { authorization: { params: { scope: "read,activity:read_all" } } },
  })
  expect(location.searchParams.get("scope")).toBe("read,activity:read_all")
  expect(session).not.toBeNull()
})
