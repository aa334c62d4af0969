/**
 * Telling an adapter's refusal of a duplicate row from a fault. Tessera makes some
 * things single use by inserting a verification token whose second insert fails (a
 * passkey challenge used, a passkey counter's step claimed): only that refusal is the
 * client's doing; the database down, read-only or full is a server fault, logged at error.
 * @module
 */

/**
 * Whether an adapter's failure is a unique constraint refusing the row, somewhere in its
 * cause chain: PostgreSQL 23505 "duplicate key value violates unique constraint", SQLite
 * "UNIQUE constraint failed" (`SQLITE_CONSTRAINT_UNIQUE`/`_PRIMARYKEY`), MySQL
 * `ER_DUP_ENTRY` "Duplicate entry", Prisma P2002, MongoDB E11000 "duplicate key", the
 * memory adapter's "already exists", Sequelize's `SequelizeUniqueConstraintError`.
 */
export function isDuplicateRefusal(error: unknown): boolean {
  for (let depth = 0; depth < 5 && error != null && typeof error === "object"; depth++) {
    const { message, code, name } = error as { message?: unknown; code?: unknown; name?: unknown }
    if (typeof message === "string" && /unique|duplicate|already exists/i.test(message)) return true
    // Sequelize's says only "Validation error"; its name tells.
    if (typeof name === "string" && /unique/i.test(name)) return true
    if (
      code === "23505" ||
      code === "P2002" ||
      code === "ER_DUP_ENTRY" ||
      code === 11000 ||
      code === "SQLITE_CONSTRAINT_UNIQUE" ||
      code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
      code === "UNIQUE_VIOLATION"
    )
      return true
    const cause = (error as { cause?: unknown }).cause
    // An AdapterError's cause is `{ err }` (Auth.js's shape).
    error = cause && typeof cause === "object" && "err" in cause ? cause.err : cause
  }
  return false
}
