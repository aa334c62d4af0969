/** Yandex ID: `login:*` scopes, `/info?format=json`, avatar from its id. */
import { expect } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Yandex from "@tessera/core/providers/yandex"
import type { ProfileIdentity } from "./helpers.js"

runProviderTests<ProfileIdentity>({
  provider: Yandex,
  authorization: {
    url: "https://oauth.yandex.ru/authorize",
    scope: "login:info login:email login:avatar",
    checks: ["pkce", "state"],
  },
  token: { url: "https://oauth.yandex.ru/token", clientAuth: "client_secret_basic" },
  resources: [
    {
      url: "https://login.yandex.ru/info",
      response: ({ identity, request }) => {
        expect(request.url.searchParams.get("format")).toBe("json")
        return identity.profile
      },
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      profile: {
        id: "1000034426",
        login: "ada.yandex",
        client_id: "4760187d81bc4b7799476b42b5103713",
        psuid: "1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge",
        display_name: "Ada",
        real_name: "Ada Yandex",
        default_email: "ada@yandex.example",
        emails: ["ada@yandex.example"],
        is_avatar_empty: false,
        default_avatar_id: "131652443",
      },
      expect: {
        user: {
          id: "1000034426",
          name: "Ada",
          email: "ada@yandex.example",
          image: "https://avatars.yandex.net/get-yapic/131652443/islands-200",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: {
        id: "1000034427",
        login: "bob",
        client_id: "x",
        psuid: "y",
        first_name: "Bob",
        is_avatar_empty: true,
        default_avatar_id: "0/0-0",
      },
      expect: {
        user: { id: "1000034427", name: "Bob", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})
