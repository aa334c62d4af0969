/** Salesforce (OpenID Connect): the profile from userinfo, checked against the ID Token's subject. */
import { expect } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Salesforce from "@tessera/core/providers/salesforce"

const base = "https://login.salesforce.com"
const sub = (user: string) => `${base}/id/00D5g000004ABCD/${user}`
const userinfo = (user: string, name: string, email: string, verified: boolean) => ({
  sub: sub(user),
  user_id: user,
  organization_id: "00D5g000004ABCD",
  preferred_username: email,
  nickname: name.split(" ")[0],
  name,
  email,
  email_verified: verified,
  picture: `https://c.salesforce.example/profilephoto/${user}/F`,
})

runProviderTests<{ sub: string; userinfo: object; expect: any }>({
  provider: Salesforce,
  issuer: {
    url: base,
    jwksUri: `${base}/id/keys`,
    metadata: { userinfo_endpoint: `${base}/services/oauth2/userinfo` },
  },
  authorization: {
    url: `${base}/services/oauth2/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "state", "nonce"],
  },
  token: { url: `${base}/services/oauth2/token`, clientAuth: "client_secret_basic" },
  resources: [
    {
      url: `${base}/services/oauth2/userinfo`,
      response: ({ identity, request }) => {
        expect(request.headers.get("authorization")).toMatch(/^Bearer /)
        return identity.userinfo
      },
    },
  ],
  identities: {
    verified: {
      sub: sub("0055g00000ADA"),
      userinfo: userinfo("0055g00000ADA", "Ada Salesforce", "ada@salesforce.example", true),
      expect: {
        user: {
          id: sub("0055g00000ADA"),
          name: "Ada Salesforce",
          email: "ada@salesforce.example",
          image: "https://c.salesforce.example/profilephoto/0055g00000ADA/F",
        },
        verifiedEmail: "ada@salesforce.example",
      },
    },
    unverified: {
      sub: sub("0055g00000BOB"),
      userinfo: userinfo("0055g00000BOB", "Bob Salesforce", "bob@salesforce.example", false),
      expect: {
        user: {
          id: sub("0055g00000BOB"),
          name: "Bob Salesforce",
          email: "bob@salesforce.example",
          image: "https://c.salesforce.example/profilephoto/0055g00000BOB/F",
        },
        verifiedEmail: null,
      },
    },
  },
})
