/** Todoist (OAuth 2.0): state (required, no PKCE), secret in the body, the user from API v1. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Todoist from "@tessera/core/providers/todoist"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: string, name: string, email: string, avatar: string | null) => ({
  id,
  email,
  full_name: name,
  avatar_big: avatar,
  avatar_medium: avatar,
  avatar_s640: avatar,
  avatar_small: avatar,
  inbox_project_id: "6Jf8VQXxpwv56VQ7",
  is_premium: false,
  lang: "en",
  tz_info: { timezone: "Europe/Lisbon", gmt_string: "+00:00", hours: 0, minutes: 0 },
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Todoist,
  authorization: {
    url: "https://todoist.com/oauth/authorize",
    scope: "data:read",
    checks: ["state"],
  },
  token: {
    url: "https://todoist.com/oauth/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({ access_token: accessToken, token_type: "Bearer" }),
    error: () => json({ error: "bad_authorization_code" }, 400),
  },
  resources: [profileAt("https://api.todoist.com/api/v1/user")],
  identities: {
    verified: {
      sub: "ada",
      profile: user(
        "2671355",
        "Ada Todo",
        "ada@todoist.example",
        "https://dcff1xvirvpfp.example/ada_big.jpg",
      ),
      expect: {
        user: {
          id: "2671355",
          name: "Ada Todo",
          email: "ada@todoist.example",
          image: "https://dcff1xvirvpfp.example/ada_big.jpg",
        },
        // Todoist sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: user("2671356", "", "bob@todoist.example", null),
      expect: {
        user: { id: "2671356", name: null, email: "bob@todoist.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the user is read with the token as a Bearer header", async () => {
  await suite.signIn("ada")
  const request = suite.standIn.requestsTo("https://api.todoist.com/api/v1/user").at(-1)!
  expect(request.method).toBe("GET")
  expect(request.headers.get("authorization")).toMatch(/^Bearer at-/)
})
