/**
 * Tessera's configuration for the demo: one provider per sign-in method.
 *
 * Built once, when the server loads this module: by then `server.js` has put
 * the database path and the local provider's address in the environment.
 * (`vite build` imports it too; nothing here opens the database or reaches
 * the network until a request needs it.) `AUTH_SECRET` is read by Tessera.
 * @module
 */
import { SvelteKitAuth, type SvelteKitAuthConfig } from "@tessera/sveltekit"
import Credentials from "@tessera/core/providers/credentials"
import Email from "@tessera/core/providers/email"
import Nodemailer from "@tessera/core/providers/nodemailer"
import Passkey from "@tessera/core/providers/passkey"
import VK from "@tessera/core/providers/vk"
import type { Provider } from "@tessera/core/providers"
import { checkCredentials } from "$lib/server/accounts"
import { authAdapter } from "$lib/server/db"
import { deliverToMailbox } from "$lib/server/mailbox"
import { demoSettings, type DemoSettings } from "$lib/server/settings"

/** The local OpenID provider's id: `/auth/signin/local-idp`, `/auth/callback/local-idp`. */
export const LOCAL_IDP_ID = "local-idp"

function providers(settings: DemoSettings): Provider[] {
  const list: Provider[] = []
  // The demo accounts' passwords are public: the method exists only when they are meant to.
  if (settings.demoAccounts) {
    list.push(
      Credentials({
        name: "Demo account",
        credentials: {
          email: { label: "E-mail", type: "email", autocomplete: "username", required: true },
          password: {
            label: "Password",
            type: "password",
            autocomplete: "current-password",
            required: true,
          },
        },
        // `null` becomes `error=CredentialsSignin&code=credentials`: the same
        // answer whichever of the two fields was wrong.
        authorize: ({ email, password }) => checkCredentials(email, password),
      }),
    )
  }
  if (settings.devDefaults) {
    list.push(Email({ name: "E-mail", sendVerificationRequest: deliverToMailbox }))
  } else if (settings.emailServer) {
    list.push(
      Nodemailer({
        id: "email",
        name: "E-mail",
        server: settings.emailServer,
        from: settings.emailFrom,
      }),
    )
  }
  list.push(Passkey())
  if (settings.localIdp) {
    const { issuer, clientId, clientSecret } = settings.localIdp
    list.push({
      id: LOCAL_IDP_ID,
      name: "Local IdP",
      type: "oidc",
      issuer,
      clientId,
      clientSecret,
      checks: ["pkce", "state", "nonce"],
      // Signing out of a session that came from here signs out at the provider too
      // (RP-Initiated Logout); the provider ends sessions here when its own end
      // (back-channel logout, at /auth/backchannel-logout/local-idp).
      signOut: "provider",
      postLogoutRedirectUri: "/",
      // The local provider listens on plain http on the loopback interface.
      dangerouslyAllowInsecureHttpRequests: true,
    })
  }
  if (settings.vk) list.push(VK({ ...settings.vk }))
  return list
}

function authConfig(settings: DemoSettings): SvelteKitAuthConfig {
  return {
    adapter: authAdapter(),
    providers: providers(settings),
    // The demo runs behind nothing but its own server: the Host header is the URL.
    trustHost: true,
    // The built-in pages stay at /auth/signin etc.; "check your e-mail" is the demo's own,
    // because it knows about the development mailbox, and so is the two-factor step.
    pages: { verifyRequest: "/signin/check-email", twoFactor: "/signin/two-factor" },
    // Limits count in the database: they hold across restarts (and would across processes).
    rateLimit: { store: authAdapter().rateLimitStore() },
    // Second factors are on because the adapter stores them; this names the demo in authenticator apps.
    twoFactor: { issuer: "Tessera demo" },
    callbacks: {
      // Database sessions: `user` is the stored user; the pages need its id.
      session: ({ session, user }) => ({
        expires: session.expires,
        user: { id: user.id, name: user.name, email: user.email, image: user.image },
      }),
    },
  }
}

/** The configuration, for server code that manages sessions (`@tessera/core/sessions`). */
export const config = authConfig(demoSettings())

export const { handle, signIn, signOut } = SvelteKitAuth(config)
