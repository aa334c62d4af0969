/**
 * Which adapter failures are a duplicate row refused (the client's doing: a used passkey
 * challenge, a counter step already claimed) and which are faults (logged at error level).
 */
import { expect, test } from "vitest"
import { AdapterError } from "@tessera/core/errors"
import { isDuplicateRefusal } from "../../src/lib/duplicate.js"

const withCode = (message: string, code: unknown) => Object.assign(new Error(message), { code })

test.each([
  ["PostgreSQL", withCode('duplicate key value violates unique constraint "vt_pkey"', "23505")],
  [
    "SQLite",
    withCode(
      "UNIQUE constraint failed: verification_tokens.identifier",
      "SQLITE_CONSTRAINT_PRIMARYKEY",
    ),
  ],
  ["MySQL", withCode("Duplicate entry 'x' for key 'PRIMARY'", "ER_DUP_ENTRY")],
  ["Prisma", withCode("Unique constraint failed on the fields: (`identifier`,`token`)", "P2002")],
  ["MongoDB", withCode("E11000 duplicate key error collection", 11000)],
  [
    "Sequelize",
    Object.assign(new Error("Validation error"), { name: "SequelizeUniqueConstraintError" }),
  ],
  [
    "a driver error wrapped as a cause",
    new Error("Failed query", { cause: withCode("x", "23505") }),
  ],
])("%s: a duplicate, also inside an AdapterError", (_, error) => {
  expect(isDuplicateRefusal(error)).toBe(true)
  expect(
    isDuplicateRefusal(new AdapterError("Adapter method failed", { cause: { err: error } })),
  ).toBe(true)
})

test.each([
  ["the database down", withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
  ["read-only", withCode("attempt to write a readonly database", "SQLITE_READONLY")],
  ["a foreign key", withCode("insert violates foreign key constraint", "23503")],
  ["a timeout", new Error("Query read timeout")],
])("%s: a fault, not a duplicate", (_, error) => {
  expect(
    isDuplicateRefusal(new AdapterError("Adapter method failed", { cause: { err: error } })),
  ).toBe(false)
})
