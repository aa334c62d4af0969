/** Pipedrive (OAuth 2.0): HTTP Basic, the user in `data`, PKCE + state, no vouched-for e-mail. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Pipedrive from "@tessera/core/providers/pipedrive"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const me = (id: number, name: string, email: string, icon: string | null) => ({
  success: true,
  data: {
    id,
    name,
    email,
    default_currency: "EUR",
    locale: "en_US",
    lang: 1,
    activated: true,
    is_admin: 1,
    active_flag: true,
    icon_url: icon,
    is_you: true,
    company_id: 7_000_001,
    company_name: "Acme",
    company_domain: "acme",
  },
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Pipedrive,
  authorization: {
    url: "https://oauth.pipedrive.com/oauth/authorize",
    scope: null,
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://oauth.pipedrive.com/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, refreshToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      refresh_token: refreshToken,
      scope: "base",
      expires_in: 3599,
      api_domain: "https://acme.pipedrive.example",
    }),
    error: () =>
      json(
        {
          success: false,
          message: "Invalid grant: authorization code is invalid",
          error: "invalid_grant",
        },
        400,
      ),
  },
  resources: [profileAt("https://api.pipedrive.com/v1/users/me")],
  account: { scope: "base" },
  identities: {
    verified: {
      sub: "ada",
      profile: me(
        12,
        "Ada Pipedrive",
        "ada@pipedrive.example",
        "https://pipedrive.example/ada.png",
      ),
      expect: {
        user: {
          id: "12",
          name: "Ada Pipedrive",
          email: "ada@pipedrive.example",
          image: "https://pipedrive.example/ada.png",
        },
        // Pipedrive sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: me(13, "Bob", "bob@pipedrive.example", null),
      expect: {
        user: { id: "13", name: "Bob", email: "bob@pipedrive.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the raw profile is Pipedrive's whole answer, the user read from data", async () => {
  const { seen, session } = await suite.signIn("ada")
  expect(seen.profile).toMatchObject({ success: true, data: { id: 12, company_id: 7_000_001 } })
  expect(session?.user.name).toBe("Ada Pipedrive")
})
