/** Mattermost: endpoints under the server, client_secret_post, PKCE and state, email_verified. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Mattermost from "@tessera/core/providers/mattermost"
import { profileAt, signInFromEnv, type ProfileIdentity } from "./helpers.js"

const server = "https://chat.acme.example"

const user = (id: string, username: string, email: string, verified: boolean) => ({
  id,
  create_at: 1700000000000,
  update_at: 1700000000000,
  delete_at: 0,
  username,
  auth_data: "",
  auth_service: "",
  email,
  email_verified: verified,
  nickname: "",
  first_name: "Ada",
  last_name: "Lovelace",
  position: "",
  roles: "system_user",
  locale: "en",
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Mattermost,
  options: { issuer: server },
  authorization: { url: `${server}/oauth/authorize`, scope: null, checks: ["pkce", "state"] },
  token: { url: `${server}/oauth/access_token`, clientAuth: "client_secret_post" },
  resources: [profileAt(`${server}/api/v4/users/me`)],
  identities: {
    verified: {
      sub: "ada",
      profile: user("8xk6fyd6o3dq3ynb4ttm1qbgbe", "ada", "ada@chat.example", true),
      expect: {
        user: {
          id: "8xk6fyd6o3dq3ynb4ttm1qbgbe",
          name: "ada",
          email: "ada@chat.example",
          image: null,
        },
        verifiedEmail: "ada@chat.example",
      },
    },
    unverified: {
      sub: "bob",
      profile: {
        ...user("p9z5t4", "", "bob@chat.example", false),
        first_name: "Bob",
        last_name: "",
      },
      expect: {
        user: { id: "p9z5t4", name: "Bob", email: "bob@chat.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("AUTH_MATTERMOST_ID, _SECRET and _ISSUER configure `providers: [Mattermost]`", async () => {
  const env = {
    AUTH_MATTERMOST_ID: suite.clientId,
    AUTH_MATTERMOST_SECRET: suite.clientSecret,
    AUTH_MATTERMOST_ISSUER: `${server}/`,
  }
  const { session } = await signInFromEnv(suite, Mattermost, env, "ada")
  expect(session.user.email).toBe("ada@chat.example")
})

test("without the server's URL the configuration is refused at start, naming what is missing", async () => {
  await expect(suite.signIn("ada", { options: { issuer: undefined } })).rejects.toThrow(
    /authorization and token endpoints/,
  )
})
