/** Atlassian 3LO: audience, state, `/me` with `email_verified`. */
import { runProviderTests } from "@tessera/testing/suites"
import Atlassian from "@tessera/core/providers/atlassian"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const me = (id: string, name: string, email: string, verified: boolean) => ({
  account_type: "atlassian",
  account_id: id,
  email,
  email_verified: verified,
  name,
  picture: `https://avatar-management.atl-paas.example/${id}.png`,
  account_status: "active",
  nickname: name.split(" ")[0],
  zoneinfo: "Australia/Sydney",
  locale: "en-US",
  extended_profile: { job_title: "Designer" },
})

runProviderTests<ProfileIdentity>({
  provider: Atlassian,
  authorization: {
    url: "https://auth.atlassian.com/authorize",
    scope: "read:me",
    checks: ["state"],
    params: { audience: "api.atlassian.com" },
  },
  token: { url: "https://auth.atlassian.com/oauth/token", clientAuth: "client_secret_basic" },
  resources: [profileAt("https://api.atlassian.com/me")],
  identities: {
    verified: {
      sub: "557057:aa9c7e3a",
      profile: me("557057:aa9c7e3a", "Mia Krystof", "mia@atlassian.example", true),
      expect: {
        user: {
          id: "557057:aa9c7e3a",
          name: "Mia Krystof",
          email: "mia@atlassian.example",
          image: "https://avatar-management.atl-paas.example/557057:aa9c7e3a.png",
        },
        verifiedEmail: "mia@atlassian.example",
      },
    },
    unverified: {
      sub: "557057:bb00",
      profile: me("557057:bb00", "Bob Stone", "bob@atlassian.example", false),
      expect: {
        user: {
          id: "557057:bb00",
          name: "Bob Stone",
          email: "bob@atlassian.example",
          image: "https://avatar-management.atl-paas.example/557057:bb00.png",
        },
        verifiedEmail: null,
      },
    },
  },
})
