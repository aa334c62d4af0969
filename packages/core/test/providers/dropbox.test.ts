/** Dropbox: offline access, the profile as an RPC POST, `email_verified`. */
import { expect } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Dropbox from "@tessera/core/providers/dropbox"
import type { ProfileIdentity } from "./helpers.js"

const account = (id: string, name: string, email: string, verified: boolean) => ({
  account_id: id,
  name: {
    given_name: name,
    surname: "Dropbox",
    familiar_name: name,
    display_name: `${name} Dropbox`,
    abbreviated_name: `${name[0]}D`,
  },
  email,
  email_verified: verified,
  disabled: false,
  locale: "en",
  referral_link: "https://db.example/referrals/x",
  is_paired: false,
  account_type: { ".tag": "basic" },
  profile_photo_url: `https://dl-web.dropbox.example/photo/${id}`,
})

runProviderTests<ProfileIdentity>({
  provider: Dropbox,
  authorization: {
    url: "https://www.dropbox.com/oauth2/authorize",
    scope: "account_info.read",
    checks: ["pkce", "state"],
    params: { token_access_type: "offline" },
  },
  token: {
    url: "https://api.dropboxapi.com/oauth2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, refreshToken, identity }) => ({
      access_token: accessToken,
      token_type: "bearer",
      expires_in: 14400,
      refresh_token: refreshToken,
      scope: "account_info.read",
      uid: "12345",
      account_id: identity.profile.account_id,
    }),
  },
  resources: [
    {
      method: "POST",
      url: "https://api.dropboxapi.com/2/users/get_current_account",
      response: ({ identity, request }) => {
        expect(request.body).toBe("")
        return identity.profile
      },
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      profile: account("dbid:AAH4f99T0taONIb", "Ada", "ada@dropbox.example", true),
      expect: {
        user: {
          id: "dbid:AAH4f99T0taONIb",
          name: "Ada Dropbox",
          email: "ada@dropbox.example",
          image: "https://dl-web.dropbox.example/photo/dbid:AAH4f99T0taONIb",
        },
        verifiedEmail: "ada@dropbox.example",
      },
    },
    unverified: {
      sub: "bob",
      profile: account("dbid:BBB", "Bob", "bob@dropbox.example", false),
      expect: {
        user: {
          id: "dbid:BBB",
          name: "Bob Dropbox",
          email: "bob@dropbox.example",
          image: "https://dl-web.dropbox.example/photo/dbid:BBB",
        },
        verifiedEmail: null,
      },
    },
  },
})
