/**
 * The demo accounts of the credentials method: seeded on start, checked by the
 * credentials provider's `authorize`.
 * @module
 */
import { authAdapter, database } from "./db"
import { decoyHash, hashPassword, verifyPassword } from "./passwords"

/** Shown on the sign-in page: this is a demo, the passwords are public. */
export const DEMO_ACCOUNTS = [
  { name: "Alice Example", email: "alice@example.test", password: "wonderland-42" },
  { name: "Bob Example", email: "bob@example.test", password: "builder-42" },
] as const

/** Creates the demo users that are missing, and their passwords. Idempotent. */
export async function seedDemoAccounts(): Promise<void> {
  const adapter = authAdapter()
  const db = database()
  for (const account of DEMO_ACCOUNTS) {
    const user =
      (await adapter.getUserByEmail(account.email)) ??
      (await adapter.createUser({
        id: crypto.randomUUID(),
        name: account.name,
        email: account.email,
        emailVerified: null,
        image: null,
      }))
    const existing = await db
      .selectFrom("demo_passwords")
      .select("user_id")
      .where("user_id", "=", user.id)
      .executeTakeFirst()
    if (!existing) {
      await db
        .insertInto("demo_passwords")
        .values({ user_id: user.id, password_hash: await hashPassword(account.password) })
        .execute()
    }
  }
  // Made now, not by the first unknown address: that one would otherwise cost
  // two scrypts (the decoy's hash, then its check), and its timing would tell.
  await decoyHash()
}

/** Longer inputs are refused before hashing: scrypt's cost should not be the attacker's to pick. */
const MAX_FIELD_LENGTH = 256

/**
 * The user whose e-mail and password match, or `null`. Says nothing about
 * which of the two was wrong, in its result or its timing: an unknown address
 * is checked against a decoy hash, so it costs one scrypt like a wrong password.
 */
export async function checkCredentials(email: unknown, password: unknown) {
  if (typeof email !== "string" || typeof password !== "string") return null
  if (!email || !password || email.length > MAX_FIELD_LENGTH || password.length > MAX_FIELD_LENGTH)
    return null
  const row = await database()
    .selectFrom("users")
    .innerJoin("demo_passwords", "demo_passwords.user_id", "users.id")
    .select([
      "users.id",
      "users.name",
      "users.email",
      "users.image",
      "demo_passwords.password_hash",
    ])
    .where("users.email", "=", email.trim().toLowerCase())
    .executeTakeFirst()
  const matches = await verifyPassword(password, row?.password_hash ?? (await decoyHash()))
  if (!row || !matches) return null
  return { id: row.id, name: row.name, email: row.email, image: row.image }
}
