/**
 * Found by bench/compat-diff.mjs ("adapter contract" scenarios: an Auth.js-style adapter given
 * to both libraries, its calls recorded and compared): a sign-in replaces the database session
 * the browser had, so Tessera calls `deleteSession` with the token of the cookie the browser
 * sends; Auth.js never calls it at sign-in. Adapters written on Prisma's `delete` (Auth.js's
 * Prisma adapter among them) throw when no row has that token, which is the case for a cookie
 * whose session was revoked or purged. The sign-in then ended on the error page
 * (`error=Configuration`) after the user had been created, where Auth.js signed the user in.
 * A previous session that is not there is nothing to end; a real failure still fails.
 */
import { expect, test } from "vitest"
import { Auth, type Adapter } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import { Jar, ORIGIN, get, makeConfig, sessionCookieName, setsSession } from "../harness/index.js"
import { requestLink } from "../flows/email/fixtures.js"

/** The memory adapter, with `deleteSession` failing as Prisma's `delete` does for no row. */
function prismaLikeAdapter(): Adapter & { tokens: Set<string> } {
  const memory = MemoryAdapter()
  const tokens = new Set<string>()
  return {
    ...memory,
    tokens,
    async createSession(session) {
      tokens.add(session.sessionToken)
      return memory.createSession!(session)
    },
    async deleteSession(sessionToken) {
      if (!tokens.delete(sessionToken)) {
        throw new Error(
          "An operation failed because it depends on one or more records that were required but not found. Record to delete does not exist.",
        )
      }
      return memory.deleteSession!(sessionToken)
    },
  }
}

function emailConfig(adapter: Adapter) {
  const mailed: string[] = []
  const { config, log } = makeConfig({
    adapter,
    session: { strategy: "database" },
    providers: [
      {
        id: "email",
        type: "email",
        name: "Email",
        from: "auth@example.com",
        sendVerificationRequest: async ({ url }) => void mailed.push(url),
      },
    ],
  })
  return { config, log, mailed }
}

test("an e-mail sign-in from a browser holding a stale session cookie signs in", async () => {
  const adapter = prismaLikeAdapter()
  const { config, mailed } = emailConfig(adapter)
  // The cookie of a session whose row is gone (revoked, purged): well-formed, stored nowhere.
  const jar = new Jar({ [sessionCookieName()]: "ab".repeat(32) })
  await requestLink(config, "ada@example.com", { providerId: "email", jar })
  expect(mailed).toHaveLength(1)
  const link = new URL(mailed[0]!)
  const response = await Auth(get(`${link.pathname}${link.search}`, { jar }), config)
  expect(response.headers.get("location")).toBe(`${ORIGIN}/`)
  expect(setsSession(response)).toBe(true)
  jar.update(response)
  const session = await (await Auth(get("/auth/session", { jar }), config)).json()
  expect(session).toMatchObject({ user: { email: "ada@example.com" } })
})

test("a signed-in browser signing in again still ends its previous session", async () => {
  const adapter = prismaLikeAdapter()
  const { config, mailed } = emailConfig(adapter)
  const jar = new Jar()
  for (const round of [1, 2]) {
    await requestLink(config, "ada@example.com", { providerId: "email", jar })
    const link = new URL(mailed[round - 1]!)
    const response = await Auth(get(`${link.pathname}${link.search}`, { jar }), config)
    expect(setsSession(response)).toBe(true)
    jar.update(response)
  }
  // One session row left: the first one was deleted when the second began.
  expect(adapter.tokens.size).toBe(1)
})

test("a deleteSession that fails while the previous session is still stored fails the sign-in", async () => {
  const memory = MemoryAdapter()
  const adapter: Adapter = {
    ...memory,
    async deleteSession() {
      throw new Error("connection lost")
    },
  }
  const { config, mailed } = emailConfig(adapter)
  const jar = new Jar()
  await requestLink(config, "ada@example.com", { providerId: "email", jar })
  let response = await Auth(
    get(new URL(mailed[0]!).pathname + new URL(mailed[0]!).search, { jar }),
    config,
  )
  jar.update(response)
  await requestLink(config, "ada@example.com", { providerId: "email", jar })
  const second = new URL(mailed[1]!)
  response = await Auth(get(`${second.pathname}${second.search}`, { jar }), config)
  // The old session could not be ended: no new one is handed out beside it.
  expect(setsSession(response)).toBe(false)
  expect(response.headers.get("location")).toContain("error=")
})
