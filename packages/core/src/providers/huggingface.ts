/**
 * Sign in with Hugging Face (OpenID Connect).
 *
 * Create an OAuth app in your Hugging Face settings (Connected Apps) with
 * `https://<your app>/auth/callback/huggingface` as a redirect URL and the
 * `openid`, `profile` and `email` scopes. `clientId`/`clientSecret` default to
 * `AUTH_HUGGINGFACE_ID`/`AUTH_HUGGINGFACE_SECRET`.
 *
 * @example
 * ```ts
 * import HuggingFace from "@tessera/core/providers/huggingface"
 * HuggingFace({ clientId: process.env.AUTH_HUGGINGFACE_ID, clientSecret: process.env.AUTH_HUGGINGFACE_SECRET })
 * ```
 *
 * The issuer is `https://huggingface.co`; the checks are PKCE and `state`.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://huggingface.co/docs/hub/oauth
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  profileOf,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of Hugging Face's ID Token. */
export interface HuggingFaceProfile {
  sub: string
  name?: string
  preferred_username?: string
  profile?: string
  picture?: string
  website?: string
  email?: string
  email_verified?: boolean
  isPro?: boolean
  canPay?: boolean
  orgs?: Array<{
    sub: string
    name: string
    picture: string
    preferred_username: string
    isEnterprise: boolean
    roleInOrg?: "admin" | "write" | "read" | "contributor"
  }>
  [claim: string]: ProviderClaim
}

/** Auth.js's spelling of {@link HuggingFaceProfile}. */
export type HuggingfaceProfile = HuggingFaceProfile

/**
 * Sign in with Hugging Face (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_HUGGINGFACE_ID`, `AUTH_HUGGINGFACE_SECRET`), and any OAuth option to override.
 * @see [Auth.js: HuggingFace](https://authjs.dev/reference/core/providers/huggingface)
 * @see https://huggingface.co/docs/hub/oauth
 */
export default function HuggingFace<P extends HuggingFaceProfile = HuggingFaceProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "huggingface",
    name: "Hugging Face",
    type: "oidc",
    issuer: "https://huggingface.co",
    checks: ["state", "pkce"],
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#ffd21e" },
    options: endpointUrlsAsObjects(options),
  }
}
