/**
 * Sign in with Battle.net (OpenID Connect).
 *
 * Create a client at develop.battle.net with
 * `https://<your app>/auth/callback/battlenet` as a redirect URL. The issuer is
 * the region's: `https://oauth.battle.net` (global), `https://oauth.battlenet.com.cn`
 * (China), or a legacy regional `https://<us|eu|kr|tw>.battle.net/oauth`.
 * `clientId`, `clientSecret` and `issuer` default to `AUTH_BATTLENET_ID`,
 * `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import BattleNet from "@tessera/core/providers/battlenet"
 * BattleNet({
 *   clientId: process.env.AUTH_BATTLENET_ID,
 *   clientSecret: process.env.AUTH_BATTLENET_SECRET,
 *   issuer: "https://oauth.battle.net",
 * })
 * ```
 *
 * Battle.net knows no `profile` or `email` scope: the scope is `openid` (add
 * `wow.profile`, `sc2.profile`, ... for game data). The name is the BattleTag.
 *
 * Verified e-mail: none; Battle.net shares no e-mail address.
 * @see https://develop.battle.net/documentation/guides/using-oauth
 * @see https://develop.battle.net/documentation/guides/using-openid-connect
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OIDCConfig, OIDCUserConfig, ProviderClaim } from "./oauth.js"

/** The claims of a Battle.net ID Token. */
export interface BattleNetProfile {
  sub: string
  battle_tag: string
  iss?: string
  aud?: string
  [claim: string]: ProviderClaim
}

export type BattleNetIssuer =
  | "https://oauth.battle.net"
  | "https://oauth.battlenet.com.cn"
  | "https://www.battlenet.com.cn/oauth"
  | `https://${"us" | "eu" | "kr" | "tw"}.battle.net/oauth`

export interface BattleNetOptions<P> extends OIDCUserConfig<P> {
  issuer?: BattleNetIssuer | (string & {})
}

/**
 * Sign in with Battle.net (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_BATTLENET_ID`, `AUTH_BATTLENET_SECRET`), and any OAuth option to override.
 * @see [Auth.js: BattleNet](https://authjs.dev/reference/core/providers/battlenet)
 * @see https://develop.battle.net/documentation/guides/using-oauth
 * @see https://develop.battle.net/documentation/guides/using-openid-connect
 */
export default function BattleNet<P extends BattleNetProfile = BattleNetProfile>(
  options: BattleNetOptions<P> = {},
): OIDCConfig<P> {
  return {
    id: "battlenet",
    name: "Battle.net",
    type: "oidc",
    issuer: "https://oauth.battle.net",
    authorization: { params: { scope: "openid" } },
    profile(profile) {
      return { id: profile.sub, name: profile.battle_tag ?? null, email: null, image: null }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#148eff" },
    options: endpointUrlsAsObjects(options),
  }
}
