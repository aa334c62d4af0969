import { describe, expect, test } from "vitest"
import { testAccount, testUser } from "@tessera/testing"
import { runAdapterTests } from "@tessera/testing/suites"
import { createMemoryStore, MemoryAdapter } from "../src/memory-adapter.js"
import { memoryDb } from "./memory-db.js"

const store = createMemoryStore()

runAdapterTests({
  name: "MemoryAdapter conformance",
  adapter: MemoryAdapter(store),
  db: memoryDb(store),
})

describe("MemoryAdapter", () => {
  test("each call has its own store", async () => {
    const a = MemoryAdapter()
    const b = MemoryAdapter()
    const user = testUser()
    await a.createUser!(user)
    expect(await a.getUser!(user.id)).not.toBeNull()
    expect(await b.getUser!(user.id)).toBeNull()
  })

  test("keeps only the known fields of users and accounts", async () => {
    const adapter = MemoryAdapter()
    const user = { ...testUser(), login: "ada", profile: { big: true } }
    await adapter.createUser!(user)
    expect(Object.keys((await adapter.getUser!(user.id))!).sort()).toEqual([
      "email",
      "emailVerified",
      "id",
      "image",
      "name",
    ])
    const account = { ...testAccount(user.id), ok: true, refresh_token_expires_in: 60 }
    await adapter.linkAccount!(account)
    const stored = await adapter.getAccount!(account.providerAccountId, account.provider)
    expect(stored).not.toHaveProperty("ok")
    expect(stored).toMatchObject({
      access_token: account.access_token,
      expires_at: account.expires_at,
    })
  })

  test("rows cannot point at a missing user", async () => {
    const adapter = MemoryAdapter()
    await expect(adapter.linkAccount!(testAccount("nobody"))).rejects.toThrow()
    await expect(
      adapter.createSession!({
        sessionToken: "t",
        userId: "nobody",
        expires: new Date(Date.now() + 1000),
      }),
    ).rejects.toThrow()
  })
})
