// The names the guide's samples take as given, so a sample can show the calls that matter
// (`getSession(request, config)`) without first declaring a request, a configuration and a user
// store. Used only by scripts/check-docs.mjs; a name a sample declares itself wins over these.
import type { AuthConfig } from "@tessera/core"
import type { Adapter } from "@tessera/core/adapters"
import type { Database } from "@tessera/sql"
import type { Kysely } from "kysely"

declare global {
  /** The app's configuration. */
  const config: AuthConfig
  /** The request being handled. */
  const request: Request
  /** The app's secret, and a token (a session cookie's value, say). */
  const secret: string
  const token: string
  /** What a sign-in form posted. */
  const username: string
  const email: string
  const password: string
  /** A one-time code the user typed (a second factor's, an e-mail's). */
  const code: string
  /** A Kysely instance on the app's database, and an adapter. */
  const db: Kysely<Database>
  const adapter: Adapter
  /** The app's providers, and a mail server's URL and sender. */
  const providers: AuthConfig["providers"]
  const server: string
  const from: string
  /** Where the app redirected the browser to sign in at a provider. */
  const authorizationUrl: string
  /** The app's own user store and mail service. */
  interface AppUser {
    id: string
    name: string
    email: string
    passwordHash: string
  }
  function findUser(username: string): Promise<AppUser | null>
  function findUserByEmail(email: string): Promise<AppUser | null>
  function verifyPassword(user: AppUser, password: string): Promise<boolean>
  function savePasswordHash(userId: string, hash: string): Promise<void>
  function passwordMatches(email: string, password: string): Promise<boolean>
  const mailApi: {
    send(mail: { to: string; subject: string; text: string; html: string }): Promise<void>
  }
}
