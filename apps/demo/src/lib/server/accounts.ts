/**
 * The demo accounts of the credentials method: seeded on start, checked by the
 * credentials provider's `authorize`.
 * @module
 */
import { hashPassword, verifyPassword } from "@tessera/core/password"
import { authAdapter, database } from "./db"

/** Shown on the sign-in page: this is a demo, the passwords are public. */
export const DEMO_ACCOUNTS = [
  { name: "Alice Example", email: "alice@example.test", password: "wonderland-42" },
  { name: "Bob Example", email: "bob@example.test", password: "builder-42" },
] as const

/**
 * Creates the demo users that are missing, and their passwords. Idempotent.
 *
 * Their addresses are marked verified: the demo vouches for its own fixtures (`example.test`
 * receives no mail, so nobody else can prove them). An unverified address would be a mere
 * claim (SECURITY.md), released to the first identity provider that vouches for it: signing in
 * at the local provider as `alice` would take the address from the demo account and break its
 * password sign-in. Verified, such a sign-in is refused (`OAuthAccountNotLinked`) until Alice
 * links the provider from her account page.
 */
export async function seedDemoAccounts(): Promise<void> {
  const adapter = authAdapter()
  const db = database()
  for (const account of DEMO_ACCOUNTS) {
    let user = await adapter.getUserByEmail(account.email)
    user ??= await adapter.createUser({
      id: crypto.randomUUID(),
      name: account.name,
      email: account.email,
      emailVerified: new Date(),
      image: null,
    })
    // Databases seeded by earlier versions of the demo hold them unverified.
    if (!user.emailVerified)
      user = await adapter.updateUser({ id: user.id, emailVerified: new Date() })
    const existing = await db
      .selectFrom("demo_passwords")
      .select("password_hash")
      .where("user_id", "=", user.id)
      .executeTakeFirst()
    // Databases made by earlier versions of the demo hold its own scrypt format
    // (no leading "$"), which is not a PHC string: hash those passwords again.
    if (!existing || !existing.password_hash.startsWith("$")) {
      const passwordHash = await hashPassword(account.password)
      await db
        .insertInto("demo_passwords")
        .values({ user_id: user.id, password_hash: passwordHash })
        .onConflict((c) => c.column("user_id").doUpdateSet({ password_hash: passwordHash }))
        .execute()
    }
  }
}

/** Longer addresses are refused before any query. */
const MAX_EMAIL_LENGTH = 256

/**
 * The user whose e-mail and password match, or `null`. Says nothing about
 * which of the two was wrong, in its result or its timing: for an unknown
 * address `verifyPassword` checks a decoy hash, so it costs one scrypt like a
 * wrong password. Password limits (1 to 1024 characters) are the library's.
 */
export async function checkCredentials(email: unknown, password: unknown) {
  if (typeof email !== "string" || typeof password !== "string") return null
  if (!email || email.length > MAX_EMAIL_LENGTH) return null
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
  const { valid, needsRehash } = await verifyPassword(row?.password_hash ?? null, password)
  if (!row || !valid) return null
  // The hash is older or cheaper than today's policy: replace it while the password is at hand.
  if (needsRehash) {
    await database()
      .updateTable("demo_passwords")
      .set({ password_hash: await hashPassword(password) })
      .where("user_id", "=", row.id)
      .execute()
  }
  return { id: row.id, name: row.name, email: row.email, image: row.image }
}
