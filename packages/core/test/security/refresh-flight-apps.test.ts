/**
 * The token refresh single flight is the process's (perconfig23): two apps in one process (two
 * tenants: each its own database and OAuth client, the same provider id) must never get each
 * other's flight. Accounts without a refresh token all hashed to one key (the hash of ""), so
 * the same user at the provider (Google's `sub` is the same for every client) in both apps
 * shared one: app B's call took the access token app A's database held.
 */
import { describe, expect, test } from "vitest"
import { getAccessToken, type AuthConfig } from "@tessera/core"
import type { Adapter } from "@tessera/core/adapters"
import { MemoryAdapter } from "@tessera/testing"
import { SECRET } from "../harness/index.js"

const SUB = "1234567890"
const expired = () => Math.floor(Date.now() / 1000) - 10

/** An app of its own: its database (one user, linked to `shared` without a refresh token). */
async function tenant(name: string, adapter: Adapter = MemoryAdapter()) {
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    providers: [
      {
        id: "shared",
        name: "Shared",
        type: "oauth",
        clientId: `client-${name}`,
        clientSecret: "secret",
        authorization: `https://${name}.example/authorize`,
        token: `https://${name}.example/token`,
        userinfo: `https://${name}.example/userinfo`,
      },
    ],
  }
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email: `ada@${name}.example`,
    emailVerified: null,
  })
  await adapter.linkAccount!({
    userId: user.id,
    type: "oauth",
    provider: "shared",
    providerAccountId: SUB,
    access_token: `${name}-old`,
    expires_at: expired(),
  })
  return { config, userId: user.id }
}

/** Lets pending work run: a bounded number of turns of the event loop, no clock. */
async function turns(n: number, done: () => boolean) {
  for (let i = 0; i < n && !done(); i++) await new Promise((resolve) => setImmediate(resolve))
}

describe("token refresh single flight across apps in one process", () => {
  test("an account without a refresh token never gets another app's access token", async () => {
    const memory = MemoryAdapter()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let leased!: () => void
    const inLease = new Promise<void>((resolve) => (leased = resolve))
    // App A's refresh holds its lease while app B asks; meanwhile A's user signs in again (new
    // tokens stored), which A's refresh then finds.
    const adapterA: Adapter = {
      ...memory,
      async leaseAccountRefresh(params) {
        leased()
        await gate
        await memory.updateAccount!({
          provider: "shared",
          providerAccountId: SUB,
          access_token: "a-access-token",
          expires_at: expired() + 3600,
        })
        return memory.leaseAccountRefresh!(params)
      },
    }
    const a = await tenant("a", adapterA)
    const b = await tenant("b")
    const fromA = getAccessToken(a.config, { userId: a.userId, provider: "shared" })
    await inLease
    let settled = false
    // Handled at once: B's refusal may come while the loop turns below, before anything awaits it.
    const fromB = getAccessToken(b.config, { userId: b.userId, provider: "shared" })
      .then(
        (token) => token.accessToken,
        (error: { code?: string }) => error.code,
      )
      .finally(() => (settled = true))
    await turns(100, () => settled)
    release()
    expect((await fromA).accessToken).toBe("a-access-token")
    const answer = await fromB
    expect(answer).not.toBe("a-access-token")
    expect(answer).toBe("no_refresh_token")
  })
})
