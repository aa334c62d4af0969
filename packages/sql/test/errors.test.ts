import { inspect } from "node:util"
import { describe, expect, test } from "vitest"
import { SqlAdapter, redactError } from "@tessera/sql"
import { redactString, secretsOf } from "../src/redact.js"

const PASSWORD = "hunter2-S3cret"

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure")
    },
    (error: unknown) => error,
  )
}

describe("errors never carry connection passwords", () => {
  test("connection refused", async () => {
    const adapter = SqlAdapter.postgres(`postgres://tessera:${PASSWORD}@127.0.0.1:1/auth`)
    try {
      const error = await failure(adapter.getUser("x"))
      expect(inspect(error, { depth: 10 })).toMatch(/ECONNREFUSED/)
      expect(inspect(error, { depth: 10 })).not.toContain(PASSWORD)
    } finally {
      await adapter.close()
    }
  })

  test("a malformed connection string (Node puts the whole URL in the error)", async () => {
    const adapter = SqlAdapter.postgres(`postgres://tessera:${PASSWORD}@local host:port/auth`)
    try {
      const error = await failure(adapter.getSessionAndUser("x"))
      expect(error).toBeInstanceOf(Error)
      expect(inspect(error, { depth: 10 })).not.toContain(PASSWORD)
      expect(JSON.stringify(error)).not.toContain(PASSWORD)
    } finally {
      await adapter.close()
    }
  })

  test("a pool config's password, and migrate()", async () => {
    const adapter = SqlAdapter.postgres({
      host: "127.0.0.1",
      port: 1,
      user: "tessera",
      password: PASSWORD,
    })
    try {
      const error = await failure(adapter.migrate())
      expect(inspect(error, { depth: 10 })).not.toContain(PASSWORD)
    } finally {
      await adapter.close()
    }
  })

  test("redactError scrubs message, stack, extra fields, causes and aggregated errors, in place", () => {
    const url = `postgresql://app:${encodeURIComponent("p@ss/w:rd")}@db.internal:5432/auth`
    const inner = Object.assign(new Error(`connect to ${url} failed`), {
      code: "ECONNREFUSED",
      input: url,
    })
    const error = new AggregateError([inner], `cannot reach ${url}`, { cause: inner })
    const secrets = secretsOf(url)
    expect(redactError(error, secrets)).toBe(error)
    const text = inspect(error, { depth: 10 })
    expect(text).not.toContain("p@ss/w:rd")
    expect(text).not.toContain(encodeURIComponent("p@ss/w:rd"))
    expect(inner.code).toBe("ECONNREFUSED")
    expect(redactString("see postgres://u:pw@h/db and mysql://x:y@z")).toBe(
      "see postgres://u:***@h/db and mysql://x:***@z",
    )
  })
})
