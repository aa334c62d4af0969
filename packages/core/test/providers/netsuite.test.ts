/** NetSuite: the account's own domains, state, scope and prompt, the RESTlet as userinfo. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import NetSuite from "@tessera/core/providers/netsuite"
import type { ProfileIdentity } from "./helpers.js"

const RESTLET = "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl"

const suite = runProviderTests<ProfileIdentity>({
  provider: NetSuite,
  options: { accountID: "1234567_SB1", userinfo: `${RESTLET}?script=123&deploy=1` },
  authorization: {
    url: "https://1234567-sb1.app.netsuite.com/app/login/oauth2/authorize.nl",
    scope: "restlets rest_webservices",
    checks: ["state"],
  },
  token: {
    url: "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token",
    clientAuth: "client_secret_basic",
    error: () => json({ error: "invalid_grant" }, 400),
  },
  resources: [
    {
      url: RESTLET,
      response: ({ identity, request }) => {
        expect(request.headers.get("content-type")).toBe("application/json")
        expect(request.url.searchParams.get("script")).toBe("123")
        // A RESTlet returning JSON.stringify(user) sends a JSON string.
        return identity.stringified ? JSON.stringify(identity.profile) : identity.profile
      },
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      profile: {
        id: 1234,
        name: "Ada Lovelace",
        email: "ada@netsuite.example",
        role: 3,
        location: 1,
      },
      expect: {
        user: { id: "1234", name: "Ada Lovelace", email: "ada@netsuite.example", image: null },
        // The RESTlet's user comes with no flag saying the address was verified.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      stringified: true,
      profile: { id: 5678, name: "Bob", email: "bob@netsuite.example", role: 1015, location: 2 },
      expect: {
        user: { id: "5678", name: "Bob", email: "bob@netsuite.example", image: null },
        verifiedEmail: null,
      },
    },
    // The administrator NetSuite made when it provisioned the account: internal id -5.
    administrator: {
      sub: "admin",
      profile: { id: -5, name: "Administrator", email: "admin@netsuite.example", role: 3 },
      expect: {
        user: { id: "-5", name: "Administrator", email: "admin@netsuite.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the account's first administrator (internal id -5) signs in, keyed by -5", async () => {
  const { done, session, seen } = await suite.signIn("admin")
  expect(done.headers.get("location")).not.toMatch(/error=/)
  expect(session?.user?.name).toBe("Administrator")
  expect(seen.account?.providerAccountId).toBe("-5")
})

test("scope and prompt reach the authorization request", async () => {
  const { location } = await suite.signIn("ada", {
    options: { scope: "restlets", prompt: "login consent" },
  })
  expect(location.searchParams.get("scope")).toBe("restlets")
  expect(location.searchParams.get("prompt")).toBe("login consent")
})

test("an account id that is no host name is refused", () => {
  expect(() => NetSuite({ accountID: "evil.example/x" })).toThrow(/not a NetSuite account id/)
})

test("without the RESTlet the configuration is refused at start, naming what is missing", async () => {
  await expect(suite.signIn("ada", { options: { userinfo: undefined } })).rejects.toThrow(
    /no way to read the user's profile/,
  )
})
