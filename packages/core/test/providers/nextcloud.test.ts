/** Nextcloud: endpoints under the server, the token's user_id, the OCS API and its header, the avatar URL. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Nextcloud from "@tessera/core/providers/nextcloud"
import { signInFromEnv, type ProfileIdentity } from "./helpers.js"

const server = "https://cloud.acme.example"
const USERS = `${server}/ocs/v1.php/cloud/users`

const ocs = (data: unknown) => ({
  ocs: { meta: { status: "ok", statuscode: 100, message: "OK" }, data },
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Nextcloud,
  options: { issuer: server },
  authorization: {
    url: `${server}/apps/oauth2/authorize`,
    scope: null,
    checks: ["pkce", "state"],
  },
  token: {
    url: `${server}/apps/oauth2/api/v1/token`,
    clientAuth: "client_secret_basic",
    response: ({ accessToken, refreshToken, identity }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: refreshToken,
      user_id: identity.tokenUser ?? identity.profile.id,
    }),
    error: () => json({ error: "invalid_request" }, 400),
  },
  resources: [
    {
      url: `${USERS}/*`,
      // Answers with the token's own account, whatever user the path names.
      response: ({ identity, request }) => {
        expect(request.headers.get("ocs-apirequest")).toBe("true")
        return ocs(identity.profile)
      },
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      profile: {
        id: "ada lovelace",
        email: "ada@cloud.example",
        displayname: "Ada Lovelace",
        groups: ["admin"],
        enabled: true,
      },
      expect: {
        user: {
          id: "ada lovelace",
          name: "Ada Lovelace",
          email: "ada@cloud.example",
          image: `${server}/avatar/ada%20lovelace/512`,
        },
        // The OCS API says nothing about whether the address was verified.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: { id: "bob", email: null, displayname: "" },
      expect: {
        user: { id: "bob", name: "bob", email: null, image: `${server}/avatar/bob/512` },
        verifiedEmail: null,
      },
    },
    // The token names one user, the OCS API answers about another.
    mismatch: {
      sub: "mallory",
      tokenUser: "ada lovelace",
      profile: { id: "mallory", email: "m@cloud.example", displayname: "M" },
      expect: {},
    },
  },
})

test("the user is the token's user_id, read from the OCS API", async () => {
  await suite.signIn("ada")
  const request = suite.standIn.requestsTo(`${USERS}/ada%20lovelace`).at(-1)
  expect(request?.headers.get("accept")).toBe("application/json")
})

test("an OCS answer about another user than the token's signs nobody in", async () => {
  const { session, errors } = await suite.signIn("mallory")
  expect(session).toBeNull()
  expect(errors.at(-1)?.message).toMatch(/about another user than the token's/)
})

test("AUTH_NEXTCLOUD_ID, _SECRET and _ISSUER configure `providers: [Nextcloud]`", async () => {
  const env = {
    AUTH_NEXTCLOUD_ID: suite.clientId,
    AUTH_NEXTCLOUD_SECRET: suite.clientSecret,
    AUTH_NEXTCLOUD_ISSUER: server,
  }
  const { session } = await signInFromEnv(suite, Nextcloud, env, "ada")
  expect(session.user.image).toBe(`${server}/avatar/ada%20lovelace/512`)
})
