/**
 * A `profile` callback may return the account id as a BigInt (an app reading a 64-bit id from
 * its digits, `BigInt(profile.id_str)`, so it is not rounded past 2^53). Auth.js keeps it and
 * its adapters store its digits; Tessera stores it as its decimal text. Driven through `Auth()`
 * with a GitLab-shaped provider on a stand-in and a migrated SQLite file. Unsafe numbers,
 * fractions and ids with control characters stay refused (redteam16-keys.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import GitLab from "@tessera/core/providers/gitlab"
import { setsSession, StandIn } from "@tessera/testing"
import { app, clientOptions, signIn, standUp } from "../../security/redteam16-helpers.js"

let standIn: StandIn
let gitlab: Awaited<ReturnType<typeof standUp>>

beforeAll(async () => {
  standIn = await StandIn.start()
  gitlab = await standUp(standIn, {
    issuer: "https://gitlab.com",
    authorize: "https://gitlab.com/oauth/authorize",
    token: "https://gitlab.com/oauth/token",
    userinfo: "https://gitlab.com/api/v4/user",
  })
}, 60_000)
afterAll(async () => {
  await standIn?.stop()
})

/** Signs in on SQLite with a `profile` callback returning `id`; what came back and was stored. */
async function signInWithId(id: (profile: Record<string, unknown>) => unknown) {
  gitlab.answer.userinfo = {
    id: 7,
    id_str: "9007199254740993",
    username: "m",
    email: "m@mail.test",
  }
  const provider = GitLab({
    ...clientOptions(standIn, false),
    profile: (profile) => ({ id: id(profile) as string, name: "M", email: "m@mail.test" }),
  })
  const { config, backend } = await app(provider, { adapter: "sqlite", victim: false })
  const accountIds: unknown[] = []
  config.callbacks = {
    signIn: ({ account }) => {
      accountIds.push(account?.providerAccountId)
      return true
    },
  }
  try {
    const { done } = await signIn(config, "gitlab", gitlab.issuer)
    return {
      location: done.headers.get("location"),
      session: setsSession(done),
      stored: (await backend.accounts()).map((a) => a.providerAccountId),
      accountIds,
    }
  } finally {
    await backend.close()
  }
}

describe("a BigInt account id from a `profile` callback", () => {
  test("past 2^53: signs in, stored and passed on as its exact digits", async () => {
    const outcome = await signInWithId((profile) => BigInt(profile.id_str as string))
    expect(outcome.session).toBe(true)
    expect(outcome.stored).toEqual(["9007199254740993"])
    expect(outcome.accountIds).toEqual(["9007199254740993"])
  })

  test("negative (exact, as a negative safe integer is): keyed by its digits", async () => {
    const outcome = await signInWithId(() => -5n)
    expect(outcome.session).toBe(true)
    expect(outcome.stored).toEqual(["-5"])
  })

  test.each([
    ["an unsafe number", () => 2 ** 53],
    ["a fraction", () => 7.5],
    ["not finite", () => Infinity],
    ["a string with a control character", () => "7\u0000"],
  ])("still refused: %s", async (_, id) => {
    const outcome = await signInWithId(id)
    expect(outcome.session).toBe(false)
    expect(outcome.location).toMatch(/\/auth\/(signin|error)\?error=\w+$/)
    expect(outcome.stored).toEqual([])
  })
})
