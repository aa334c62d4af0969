/** WorkOS SSO: connection parameters, a token response without token_type, the SSO profile. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import WorkOS from "@tessera/core/providers/workos"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const profile = (id: string, first: string | null, last: string | null, picture?: string) => ({
  object: "profile",
  id,
  organization_id: "org_01EHWNCE74X7JSDV0X3SZ3KJNY",
  connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5",
  connection_type: "GoogleOAuth",
  idp_id: "103456789012345678901",
  email: `${(first ?? "x").toLowerCase()}@workos.example`,
  first_name: first,
  last_name: last,
  raw_attributes: picture ? { picture } : {},
})

const suite = runProviderTests<ProfileIdentity>({
  provider: WorkOS,
  authorization: {
    url: "https://api.workos.com/sso/authorize",
    scope: null,
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://api.workos.com/sso/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, identity }) => ({
      access_token: accessToken,
      profile: identity.profile,
    }),
  },
  resources: [profileAt("https://api.workos.com/sso/profile")],
  account: { token_type: "bearer" },
  identities: {
    verified: {
      sub: "ada",
      profile: profile(
        "prof_01DMC79VCBZ0NY2099737PSVF1",
        "Ada",
        "WorkOS",
        "https://lh3.example/ada",
      ),
      expect: {
        user: {
          id: "prof_01DMC79VCBZ0NY2099737PSVF1",
          name: "Ada WorkOS",
          email: "ada@workos.example",
          image: "https://lh3.example/ada",
        },
        // The enterprise identity provider's address, unverified by WorkOS.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: profile("prof_01DMC79VCBZ0NY2099737PSVF2", "Bob", null),
      expect: {
        user: {
          id: "prof_01DMC79VCBZ0NY2099737PSVF2",
          name: "Bob",
          email: "bob@workos.example",
          image: null,
        },
        verifiedEmail: null,
      },
    },
  },
})

test("a fixed connection, or one per sign-in", async () => {
  const fixed = await suite.signIn("ada", { options: { connection: "conn_123" } })
  expect(fixed.location.searchParams.get("connection")).toBe("conn_123")
  const { location } = await suite.signIn("ada")
  expect(location.searchParams.has("connection")).toBe(false)
})
