/**
 * The starting point of the token-refresh tests: a user signed in through the local OpenID
 * provider with `offline_access`, so that the stored account holds a refresh token. Every
 * request to the provider goes through `fetchImpl`, where a test changes the provider's
 * refresh answers on their way back, as a misbehaving provider would send them.
 */
import { expect } from "vitest"
import { customFetch, type AuthConfig } from "@tessera/core"
import type { AdapterAccount } from "@tessera/core/adapters"
import { completeOidcLogin, localOidcProvider, type OidcProviderServer } from "@tessera/testing"
import type { Backend } from "./backends.js"
import { Browser } from "./browser.js"
import { SECRET } from "./config.js"
import { recordingLogger } from "./logger.js"

export interface OfflineSignIn {
  config: AuthConfig
  userId: string
  /** The user's account with the provider, as stored now. */
  account(): Promise<AdapterAccount>
}

/** Signs a user in through `idp` (provider id `local`) on `backend`, asking for a refresh token. */
export async function signedInWithRefreshToken(
  idp: OidcProviderServer,
  backend: Backend,
  fetchImpl: typeof fetch,
): Promise<OfflineSignIn> {
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: backend.adapter,
    logger: recordingLogger().logger,
    providers: [
      {
        ...localOidcProvider(idp, "local"),
        authorization: {
          params: { scope: "openid profile email offline_access", prompt: "consent" },
        },
        [customFetch]: fetchImpl,
      },
    ],
  }
  const browser = new Browser(config)
  const start = await browser.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "ada" })
  expect((await browser.request(back.url.pathname + back.url.search)).status).toBe(302)
  const userId = (await backend.users())[0]!.id
  const account = async () => (await backend.adapter.listAccountsByUserId!(userId))[0]!
  return { config, userId, account }
}
