/**
 * Red team 7: the sign-in request's query reaches the authorization URL
 * (Auth.js's `signIn(provider, options, authorizationParams)`), but never the
 * parameters that carry the protocol. Some providers name their client id
 * otherwise, besides or instead of `client_id` (WeChat's `appid`, TikTok's
 * `client_key`): a query naming them sent the browser to the provider as
 * another app, whose consent screen and redirect the attacker picks, while the
 * callback came back to this one (a sign-in page made to show someone else's
 * app name). The provider's own client-id parameters are the configuration's.
 */
import { expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import TikTok from "@tessera/core/providers/tiktok"
import WeChat from "@tessera/core/providers/wechat"
import { Browser, SECRET } from "../harness/index.js"

function config(provider: AuthConfig["providers"][number]): AuthConfig {
  return { secret: SECRET, trustHost: true, providers: [provider] }
}

async function authorizationUrl(app: AuthConfig, id: string, query: Record<string, string>) {
  const response = await new Browser(app).startSignIn(id, { query })
  expect(response.status).toBe(302)
  return new URL(response.headers.get("location")!)
}

test("a sign-in query cannot replace WeChat's appid", async () => {
  const app = config(WeChat({ clientId: "wx-app-1", clientSecret: "secret-1" }))
  const url = await authorizationUrl(app, "wechat", { appid: "wx-attacker", lang: "en" })
  expect(url.searchParams.getAll("appid")).toEqual(["wx-app-1"])
  // Other parameters still pass, as in Auth.js.
  expect(url.searchParams.get("lang")).toBe("en")
})

test("a sign-in query cannot replace TikTok's client_key", async () => {
  const app = config(TikTok({ clientId: "tt-key-1", clientSecret: "secret-1" }))
  const url = await authorizationUrl(app, "tiktok", { client_key: "tt-attacker" })
  expect(url.searchParams.getAll("client_key")).toEqual(["tt-key-1"])
})
