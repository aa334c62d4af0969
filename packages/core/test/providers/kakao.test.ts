/** Kakao Login: no scope, secret in the body, nested profile, both e-mail flags. */
import { runProviderTests } from "@tessera/testing/suites"
import Kakao from "@tessera/core/providers/kakao"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: number, nickname: string, email: string, valid: boolean, verified: boolean) => ({
  id,
  connected_at: "2024-01-01T00:00:00Z",
  kakao_account: {
    profile_nickname_needs_agreement: false,
    profile: {
      nickname,
      thumbnail_image_url: `http://k.kakaocdn.example/${id}_110x110.jpg`,
      profile_image_url: `http://k.kakaocdn.example/${id}_640x640.jpg`,
      is_default_image: false,
    },
    email_needs_agreement: false,
    is_email_valid: valid,
    is_email_verified: verified,
    email,
  },
})

runProviderTests<ProfileIdentity>({
  provider: Kakao,
  authorization: {
    url: "https://kauth.kakao.com/oauth/authorize",
    scope: null,
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://kauth.kakao.com/oauth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, refreshToken }) => ({
      token_type: "bearer",
      access_token: accessToken,
      expires_in: 43199,
      refresh_token: refreshToken,
      refresh_token_expires_in: 5184000,
      scope: "account_email profile_image profile_nickname",
    }),
  },
  resources: [profileAt("https://kapi.kakao.com/v2/user/me")],
  identities: {
    verified: {
      sub: "ada",
      profile: user(123456789, "에이다", "ada@kakao.example", true, true),
      expect: {
        user: {
          id: "123456789",
          name: "에이다",
          email: "ada@kakao.example",
          image: "http://k.kakaocdn.example/123456789_640x640.jpg",
        },
        verifiedEmail: "ada@kakao.example",
      },
    },
    // Verified once, but since taken by another account: not vouched for.
    unverified: {
      sub: "bob",
      profile: user(987654321, "밥", "bob@kakao.example", false, true),
      expect: {
        user: {
          id: "987654321",
          name: "밥",
          email: "bob@kakao.example",
          image: "http://k.kakaocdn.example/987654321_640x640.jpg",
        },
        verifiedEmail: null,
      },
    },
  },
})
