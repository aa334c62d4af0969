/** Spotify: `/v1/me`, first image, an e-mail Spotify does not verify. */
import { runProviderTests } from "@tessera/testing/suites"
import Spotify from "@tessera/core/providers/spotify"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: string, email: string, images: object[]) => ({
  id,
  display_name: `User ${id}`,
  email,
  images,
  uri: `spotify:user:${id}`,
  href: `https://api.spotify.com/v1/users/${id}`,
  type: "user",
  external_urls: { spotify: `https://open.spotify.com/user/${id}` },
})

runProviderTests<ProfileIdentity>({
  provider: Spotify,
  authorization: {
    url: "https://accounts.spotify.com/authorize",
    scope: "user-read-email",
    checks: ["pkce", "state"],
  },
  token: { url: "https://accounts.spotify.com/api/token", clientAuth: "client_secret_basic" },
  resources: [profileAt("https://api.spotify.com/v1/me")],
  identities: {
    // Spotify documents its e-mail as unverified: no address is ever vouched for.
    verified: {
      sub: "wizzler",
      profile: user("wizzler", "wizzler@spotify.example", [
        { url: "https://i.scdn.example/image/ab67", height: 300, width: 300 },
      ]),
      expect: {
        user: {
          id: "wizzler",
          name: "User wizzler",
          email: "wizzler@spotify.example",
          image: "https://i.scdn.example/image/ab67",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "nobody",
      profile: user("nobody", "nobody@spotify.example", []),
      expect: {
        user: { id: "nobody", name: "User nobody", email: "nobody@spotify.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})
