/**
 * Sign in with Notion (OAuth 2.0, public integrations).
 *
 * Create a public integration at notion.so/my-integrations with
 * `https://<your app>/auth/callback/notion` as its redirect URI.
 * `clientId`/`clientSecret` (the OAuth client ID and secret) default to
 * `AUTH_NOTION_ID`/`AUTH_NOTION_SECRET`.
 *
 * @example
 * ```ts
 * import Notion from "@tessera/core/providers/notion"
 * Notion({ clientId: process.env.AUTH_NOTION_ID, clientSecret: process.env.AUTH_NOTION_SECRET })
 * ```
 *
 * Notion's own ways, handled here:
 * - The authorization asks for `owner=user`; the client authenticates with HTTP
 *   Basic, and the `redirect_uri` is sent again at the token endpoint (Tessera
 *   always does; the `redirectUri` option of other libraries is accepted and
 *   not needed).
 * - An access token belongs to a bot: the user is the bot's owner, read from
 *   `GET /v1/users/me` (with the `Notion-Version` header) as `bot.owner.user`.
 *   A workspace-owned integration has no user, and cannot sign anyone in.
 *
 * Verified e-mail: none. The owner's `person.email` comes with no flag saying
 * Notion verified it.
 * @see https://developers.notion.com/docs/authorization
 * @see https://developers.notion.com/reference/get-self
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { Profile } from "../types.js"
import {
  requestUserinfo,
  type OAuthConfig,
  type OAuthUserConfig,
  type UserinfoRequestContext,
  type ProviderClaim,
} from "./oauth.js"

/** The Notion API version the profile is read with. */
export const NOTION_API_VERSION = "2022-06-28"

/** The `person` part of a Notion user: present when the user is a person, not a bot. */
export interface Person {
  email?: string
  [claim: string]: ProviderClaim
}

/** A Notion user object (`GET /v1/users/...`): a person or a bot. */
export interface User {
  object: "user"
  id: string
  type: "person" | "bot"
  name: string | null
  avatar_url: string | null
  person?: Person
  /** For a bot: who owns it. */
  owner?: { type: "workspace" | "user"; workspace?: boolean; user?: User }
  workspace_name?: string | null
  [claim: string]: ProviderClaim
}

/** The owner of an integration's bot (`bot.owner` of `GET /v1/users/me`). */
export interface Owner {
  type: "workspace" | "user"
  /** Present when a user, not a workspace, owns the integration. */
  user?: User
  [claim: string]: ProviderClaim
}

/** A Notion user (the owner of the integration's bot). */
export interface NotionProfile {
  object: "user"
  id: string
  type: "person" | "bot"
  name: string | null
  avatar_url: string | null
  person?: Person
  [claim: string]: ProviderClaim
}

export interface NotionOptions<P> extends OAuthUserConfig<P> {
  /** Accepted for compatibility; Tessera sends its own callback URL as `redirect_uri`. */
  redirectUri?: string
}

async function requestOwner(context: UserinfoRequestContext): Promise<Profile> {
  const bot = (await requestUserinfo(context, {
    headers: { "notion-version": NOTION_API_VERSION },
  })) as { bot?: { owner?: { type?: string; user?: Profile } } }
  const user = bot.bot?.owner?.user
  if (!user || typeof user !== "object")
    throw new Error(
      `Notion: the integration is owned by a ${bot.bot?.owner?.type ?? "?"}, not a user`,
    )
  return user
}

/**
 * Sign in with Notion (OAuth 2.0, public integrations).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_NOTION_ID`, `AUTH_NOTION_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Notion](https://authjs.dev/reference/core/providers/notion)
 * @see https://developers.notion.com/docs/authorization
 * @see https://developers.notion.com/reference/get-self
 */
export default function Notion<P extends NotionProfile = NotionProfile>(
  options: NotionOptions<P> = {},
): OAuthConfig<P> {
  const { redirectUri: _ignored, ...rest } = options
  return {
    id: "notion",
    name: "Notion",
    type: "oauth",
    authorization: {
      url: "https://api.notion.com/v1/oauth/authorize",
      params: { owner: "user" },
    },
    token: "https://api.notion.com/v1/oauth/token",
    userinfo: { url: "https://api.notion.com/v1/users/me", request: requestOwner },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.name ?? null,
        email: profile.person?.email ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(rest),
  }
}
