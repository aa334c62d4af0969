/** SimpleLogin (OpenID Connect): `avatar_url` as the picture, standard e-mail verification. */
import { runProviderTests } from "@tessera/testing/suites"
import SimpleLogin from "@tessera/core/providers/simplelogin"

const issuer = "https://app.simplelogin.io"

runProviderTests({
  provider: SimpleLogin,
  issuer: { url: issuer, jwksUri: `${issuer}/jwks` },
  authorization: {
    url: `${issuer}/oauth2/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${issuer}/oauth2/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "MTIzNDU2Nzg",
      claims: {
        id: 12345678,
        name: "Ada Alias",
        email: "ada.alias@simplelogin.example",
        email_verified: true,
        avatar_url: "https://simplelogin.example/avatars/ada.png",
        client: "Tessera test",
      },
      expect: {
        user: {
          id: "MTIzNDU2Nzg",
          name: "Ada Alias",
          email: "ada.alias@simplelogin.example",
          image: "https://simplelogin.example/avatars/ada.png",
        },
        verifiedEmail: "ada.alias@simplelogin.example",
      },
    },
    unverified: {
      sub: "OTg3NjU0MzI",
      claims: {
        id: 98765432,
        name: "Bob",
        email: "bob@simplelogin.example",
        email_verified: false,
        avatar_url: null,
        client: "Tessera test",
      },
      expect: {
        user: { id: "OTg3NjU0MzI", name: "Bob", email: "bob@simplelogin.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})
