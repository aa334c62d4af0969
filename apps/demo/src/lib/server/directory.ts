/**
 * Read-only views of the database for the account and admin pages. Token
 * columns (access, refresh and id tokens, public keys) are never selected:
 * the pages have no use for them and so never hold them.
 * @module
 */
import { database } from "./db"

export interface LinkedAccount {
  provider: string
  type: string
  providerAccountId: string
}

export interface Passkey {
  /** The credential id (public, not a secret). */
  id: string
  /** The id shortened for display. */
  label: string
  deviceType: string
  backedUp: boolean
  transports: string[]
}

export interface Profile {
  id: string
  name: string | null
  email: string | null
  emailVerified: Date | null
  image: string | null
  hasPassword: boolean
  accounts: LinkedAccount[]
  passkeys: Passkey[]
}

export async function profileOf(userId: string): Promise<Profile | null> {
  const db = database()
  const user = await db
    .selectFrom("users")
    .leftJoin("demo_passwords", "demo_passwords.user_id", "users.id")
    .select([
      "users.id",
      "users.name",
      "users.email",
      "users.email_verified",
      "users.image",
      "demo_passwords.user_id as password_of",
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst()
  if (!user) return null
  const [accounts, passkeys] = await Promise.all([
    db
      .selectFrom("accounts")
      .select(["provider", "type", "provider_account_id"])
      .where("user_id", "=", userId)
      .orderBy("provider")
      .execute(),
    db
      .selectFrom("authenticators")
      .select(["credential_id", "credential_device_type", "credential_backed_up", "transports"])
      .where("user_id", "=", userId)
      .execute(),
  ])
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.email_verified === null ? null : new Date(user.email_verified),
    image: user.image,
    hasPassword: user.password_of !== null,
    accounts: accounts.map((a) => ({
      provider: a.provider,
      type: a.type,
      providerAccountId: a.provider_account_id,
    })),
    passkeys: passkeys.map((p) => ({
      id: p.credential_id,
      label: `${p.credential_id.slice(0, 10)}…`,
      deviceType: p.credential_device_type,
      backedUp: Boolean(p.credential_backed_up),
      transports: p.transports ? p.transports.split(",") : [],
    })),
  }
}

export interface UserSummary {
  id: string
  name: string | null
  email: string | null
  accounts: number
  passkeys: number
  sessions: number
}

/** Every user with counts of what they have; the demo has few users, so no paging. */
export async function listUsers(): Promise<UserSummary[]> {
  const db = database()
  const rows = await db
    .selectFrom("users")
    .select((eb) => [
      "users.id",
      "users.name",
      "users.email",
      eb
        .selectFrom("accounts")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("accounts.user_id", "=", "users.id")
        .as("accounts"),
      eb
        .selectFrom("authenticators")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("authenticators.user_id", "=", "users.id")
        .as("passkeys"),
      eb
        .selectFrom("sessions")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("sessions.user_id", "=", "users.id")
        .where("sessions.expires", ">", Date.now())
        .as("sessions"),
    ])
    .orderBy("users.email")
    .execute()
  return rows.map((r) => ({
    ...r,
    accounts: Number(r.accounts),
    passkeys: Number(r.passkeys),
    sessions: Number(r.sessions),
  }))
}
