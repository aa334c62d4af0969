/** Naver Login: state in the token request, secret as parameters, errors with 200, nested profile. */
import { runProviderTests } from "@tessera/testing/suites"
import Naver from "@tessera/core/providers/naver"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const me = (response: Record<string, unknown>) => ({
  resultcode: "00",
  message: "success",
  response,
})

runProviderTests<ProfileIdentity>({
  provider: Naver,
  authorization: {
    url: "https://nid.naver.com/oauth2.0/authorize",
    scope: null,
    checks: ["state"],
  },
  token: {
    url: "https://nid.naver.com/oauth2.0/token",
    clientAuth: (request, form) =>
      form.get("client_id") === "tessera-test-client" &&
      form.get("client_secret") === "tessera-test-secret" &&
      (form.get("state") ?? "").length > 0 &&
      !request.headers.has("authorization"),
    response: ({ accessToken, refreshToken }) => ({
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: "bearer",
      expires_in: "3600",
    }),
    error: () => ({ error: "invalid_request", error_description: "no valid data in session" }),
  },
  resources: [profileAt("https://openapi.naver.com/v1/nid/me")],
  identities: {
    verified: {
      sub: "ada",
      profile: me({
        id: "32742776",
        nickname: "OpenAPI",
        email: "openapi@naver.example",
        profile_image: "https://ssl.pstatic.example/static/pwe/address/nodata_33x33.gif",
      }),
      expect: {
        user: {
          id: "32742776",
          name: "OpenAPI",
          email: "openapi@naver.example",
          image: "https://ssl.pstatic.example/static/pwe/address/nodata_33x33.gif",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: me({ id: "32742777", name: "밥" }),
      expect: {
        user: { id: "32742777", name: "밥", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})
