/** Reddit: HTTP Basic and a User-Agent on every request, errors with 200, escaped icons. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Reddit from "@tessera/core/providers/reddit"
import type { ProfileIdentity } from "./helpers.js"

const suite = runProviderTests<ProfileIdentity>({
  provider: Reddit,
  authorization: {
    url: "https://www.reddit.com/api/v1/authorize",
    scope: "identity",
    checks: ["state"],
  },
  token: {
    url: "https://www.reddit.com/api/v1/access_token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      expires_in: 86400,
      scope: "identity",
    }),
    // Reddit answers a spent or unknown code with status 200.
    error: () => ({ error: "invalid_grant" }),
  },
  resources: [
    {
      url: "https://oauth.reddit.com/api/v1/me",
      response: ({ identity, request }) => {
        expect(request.headers.get("user-agent")).toMatch(/^web:/)
        return identity.profile
      },
    },
  ],
  identities: {
    verified: {
      sub: "1w72",
      profile: {
        id: "1w72",
        name: "spez",
        icon_img:
          "https://styles.redditmedia.example/t5_3k30p/styles/profileIcon_x.png?width=256&amp;height=256&amp;s=abc",
        has_verified_email: true,
      },
      expect: {
        user: {
          id: "1w72",
          name: "spez",
          email: null,
          image:
            "https://styles.redditmedia.example/t5_3k30p/styles/profileIcon_x.png?width=256&height=256&s=abc",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "abc1",
      profile: { id: "abc1", name: "newbie", icon_img: "", has_verified_email: false },
      expect: {
        user: { id: "abc1", name: "newbie", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the token request carries the User-Agent; userAgent replaces it", async () => {
  await suite.signIn("1w72")
  const token = suite.standIn.requestsTo("https://www.reddit.com/api/v1/access_token").at(-1)!
  expect(token.headers.get("user-agent")).toBe("web:tessera-test-client:1.0")
  await suite.signIn("1w72", { options: { userAgent: "web:com.acme:2.0 (by /u/acme)" } })
  const custom = suite.standIn.requestsTo("https://www.reddit.com/api/v1/access_token").at(-1)!
  expect(custom.headers.get("user-agent")).toBe("web:com.acme:2.0 (by /u/acme)")
})

test("a refresh token with duration=permanent", async () => {
  const { location } = await suite.signIn("1w72", {
    options: { authorization: { params: { duration: "permanent" } } },
  })
  expect(location.searchParams.get("duration")).toBe("permanent")
})
