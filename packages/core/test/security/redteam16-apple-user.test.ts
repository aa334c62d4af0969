/**
 * Red team, round 16: Sign in with Apple's posted `user` JSON. It passes through the browser
 * unsigned, so the user signing in writes it: a name with a NUL (PostgreSQL's text refuses it),
 * control characters, a name that is not a string, 60 KB of name. On the memory adapter, SQLite
 * and PostgreSQL each must sign in or end in an error redirect, never a 500, never a user without
 * its account; a name that is kept is short display text without control characters. This was
 * broken: the posted name was kept as sent (a NUL, terminal escapes, 60 KB) in the session and
 * the users table.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import Apple from "@tessera/core/providers/apple"
import { StandIn } from "@tessera/testing"
import { PostgresFixture, type Backend } from "../harness/backends.js"
import { APPLE, app, clientOptions, ORIGIN, signIn, standUp } from "./redteam16-helpers.js"

let standIn: StandIn
let apple: Awaited<ReturnType<typeof standUp>>
const postgres = new PostgresFixture()

beforeAll(async () => {
  standIn = await StandIn.start()
  apple = await standUp(standIn, APPLE)
  await postgres.start()
}, 120_000)
afterAll(async () => {
  await standIn?.stop()
  await postgres.stop()
})

const adapters: Array<[string, "memory" | "sqlite" | (() => Promise<Backend>)]> = [
  ["memory", "memory"],
  ["sqlite", "sqlite"],
  ["postgres", () => postgres.backend()],
]

describe.each(adapters)("on %s", (_, adapter) => {
  test.each([
    ["a NUL in firstName", { name: { firstName: "Mal\u0000lory", lastName: "M" } }],
    ["control characters", { name: { firstName: "\u001b[31mMallory", lastName: "\u0007" } }],
    ["a name that is not a string", { name: { firstName: { $gt: "" }, lastName: [1, 2] } }],
    ["60 KB of name (under the 64 KiB body limit)", { name: { firstName: "M".repeat(60_000) } }],
  ])(
    "%s: signs in with a short, clean name, never a 500 or a user without an account",
    async (_, user) => {
      apple.answer.claims = { email: "mallory@privaterelay.appleid.com", email_verified: "true" }
      const { config, backend } = await app(Apple(clientOptions(standIn, false)), {
        adapter,
        victim: false,
      })
      try {
        const { browser, done } = await signIn(config, "apple", apple.issuer, {
          sub: "001111.mallory",
          form: { user: JSON.stringify(user) },
        })
        expect(done.status).toBe(302)
        const users = await backend.users()
        const accounts = await backend.accounts()
        expect(users.length).toBe(accounts.length)
        expect(done.headers.get("location")).toBe(`${ORIGIN}/`)
        const names = [(await browser.session()).user.name, ...users.map((each) => each.name)]
        for (const name of names) {
          expect(name === null || typeof name === "string").toBe(true)
          expect(name ?? "").not.toMatch(/[\u0000-\u001f\u007f]/)
          expect((name ?? "").length).toBeLessThanOrEqual(201)
        }
      } finally {
        await backend.close()
      }
    },
  )
})
