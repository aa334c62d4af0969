/** Hugging Face (OpenID Connect): PKCE + state, standard claims. */
import { runProviderTests } from "@tessera/testing/suites"
import HuggingFace from "@tessera/core/providers/huggingface"
import { standardOidcIdentities } from "./helpers.js"

runProviderTests({
  provider: HuggingFace,
  issuer: { url: "https://huggingface.co", jwksUri: "https://huggingface.co/oauth/jwks" },
  authorization: {
    url: "https://huggingface.co/oauth/authorize",
    scope: "openid profile email",
    checks: ["pkce", "state"],
  },
  token: { url: "https://huggingface.co/oauth/token", clientAuth: "client_secret_basic" },
  identities: standardOidcIdentities("hf.example", {
    picture: "https://cdn-avatars.huggingface.example/ada.png",
    isPro: false,
    orgs: [],
  }),
})
