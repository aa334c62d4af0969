/**
 * The demo's settings, from the environment `server.js` prepared before it
 * loaded the app (see docs/demo.md), through SvelteKit's `$env/dynamic/private`.
 * @module
 */
import { env } from "$env/dynamic/private"

export interface LocalIdpSettings {
  issuer: string
  clientId: string
  clientSecret: string
}

export interface DemoSettings {
  /** The SQLite file. */
  database: string
  /**
   * True when `server.js` filled in development defaults (a generated secret):
   * the pages show a banner and the development mailbox is on.
   */
  devDefaults: boolean
  /**
   * The demo accounts (published passwords) exist and the credentials method is
   * offered: with development defaults, or `DEMO_ACCOUNTS=1`.
   */
  demoAccounts: boolean
  /** The local OpenID provider `server.js` started, if it did (development defaults or `DEMO_LOCAL_IDP=1`). */
  localIdp: LocalIdpSettings | undefined
  /** Sending real e-mail instead of the development mailbox (nodemailer connection URL). */
  emailServer: string | undefined
  emailFrom: string | undefined
  /** VK ID sign-in, offered when both are set. */
  vk: { clientId: string; clientSecret: string } | undefined
}

export function demoSettings(): DemoSettings {
  const {
    DEMO_IDP_ISSUER,
    DEMO_IDP_CLIENT_ID,
    DEMO_IDP_CLIENT_SECRET,
    AUTH_VK_ID,
    AUTH_VK_SECRET,
  } = env
  return {
    database: env.DEMO_DATABASE || "data/demo.db",
    devDefaults: env.DEMO_DEV_DEFAULTS === "1",
    demoAccounts: env.DEMO_ACCOUNTS === "1",
    localIdp:
      DEMO_IDP_ISSUER && DEMO_IDP_CLIENT_ID && DEMO_IDP_CLIENT_SECRET
        ? {
            issuer: DEMO_IDP_ISSUER,
            clientId: DEMO_IDP_CLIENT_ID,
            clientSecret: DEMO_IDP_CLIENT_SECRET,
          }
        : undefined,
    emailServer: env.EMAIL_SERVER || undefined,
    emailFrom: env.EMAIL_FROM || undefined,
    vk:
      AUTH_VK_ID && AUTH_VK_SECRET
        ? { clientId: AUTH_VK_ID, clientSecret: AUTH_VK_SECRET }
        : undefined,
  }
}
