/**
 * Red team 8, chaining a session of one user with the second-factor gate of
 * another. The gate lets a sign-in through without a code when the browser is
 * already signed in as that same user (linking another account); an attacker
 * holding the victim's password, signed in as themselves in the same browser,
 * must not pass for that case, nor turn the victim's waiting sign-in into a
 * session through the session update (`POST /auth/session`), nor finish it
 * with a code of their own factor. And the victim's codes checked on several
 * routes (the code step, with her password; `two-factor/disable`, with a copy
 * of her session), TOTP or recovery codes, count toward one lockout. (Safe
 * when tested: pinned.) On SQLite, in a real file, with JWT sessions and
 * session records.
 */
import { afterEach, beforeEach, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { ADA, get, makeConfig, ORIGIN, signIn } from "../harness/index.js"
import { sqliteBackend, type Backend } from "../harness/backends.js"
import {
  codeFor,
  enableTwoFactor,
  fakeClock,
  type Jar,
  postForm,
  session,
  submitCode,
} from "../two-factor/helpers.js"

const MALLORY = { id: "user-mallory", name: "Mallory", email: "mallory@example.com" }

let backend: Backend
let config: AuthConfig
beforeEach(async () => {
  fakeClock()
  backend = await sqliteBackend()
  for (const user of [ADA, MALLORY])
    await backend.adapter.createUser!({
      ...user,
      id: user.id!,
      email: user.email!,
      emailVerified: null,
      image: null,
    })
  ;({ config } = makeConfig({
    adapter: backend.adapter,
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          username === "ada" && password === "correct horse"
            ? { ...ADA }
            : username === "mallory" && password === "mallory's own"
              ? { ...MALLORY }
              : null,
      }),
    ],
  }))
})
afterEach(async () => {
  vi.useRealTimers()
  await backend.close()
})

test("signed in as themselves, an attacker with the victim's password still stops at the code", async () => {
  const owner = await signIn(config)
  const victim = await enableTwoFactor(config, owner.jar)
  const attacker = await signIn(config, { username: "mallory", password: "mallory's own" })
  const mallorys = await enableTwoFactor(config, attacker.jar)
  const jar: Jar = attacker.jar
  expect((await session(config, jar)).user.email).toBe(MALLORY.email)

  // The victim's password in the attacker's signed-in browser: the two-factor step, no session.
  const { response } = await signIn(config, undefined, { jar })
  expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
  expect((await session(config, jar)).user.email).toBe(MALLORY.email)

  // A session update with the waiting sign-in's cookie: still the attacker's own session.
  const update = await postForm(config, jar, "/auth/session", { data: "{}" })
  expect(update.status).toBe(200)
  expect((await update.json()).user.email).toBe(MALLORY.email)

  // The attacker's own factor's code does not finish the victim's sign-in.
  vi.setSystemTime(Date.now() + 30_000)
  const own = await submitCode(config, jar, codeFor(mallorys.secret))
  expect(own.headers.get("location")).toContain("error=TwoFactor")
  expect((await session(config, jar)).user.email).toBe(MALLORY.email)

  // Only the victim's code does (the baseline: the step itself works in this browser).
  const right = await submitCode(config, jar, codeFor(victim.secret))
  expect(right.status).toBe(302)
  expect((await session(config, jar)).user.email).toBe(ADA.email)
  // That sign-in replaced the attacker's session: Mallory's record is gone, Ada has two.
  const listed = await Auth(get("/auth/sessions", { jar }), config)
  expect(((await listed.json()) as unknown[]).length).toBe(2)
})

test("guesses at the code step, the disable route and with recovery codes share one lockout", async () => {
  // The victim's own (older) session, copied, and her password: two routes that check her codes.
  const owner = await signIn(config)
  const victim = await enableTwoFactor(config, owner.jar)
  vi.setSystemTime(Date.now() + 30_000)
  const waiting = await signIn(config)
  expect(waiting.response.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)

  const wrong = codeFor(victim.secret, Date.now(), 10)
  expect((await submitCode(config, waiting.jar, wrong)).headers.get("location")).toContain(
    "error=TwoFactor",
  )
  expect((await submitCode(config, waiting.jar, "aaaaa-bbbbb")).headers.get("location")).toContain(
    "error=TwoFactor",
  )
  for (const code of [wrong, "aaaaa-bbbbb", wrong]) {
    const disable = await postForm(config, owner.jar, "/auth/two-factor/disable", { code })
    expect(disable.status).toBe(400)
  }
  // Five wrong guesses in all: the right code and a genuine recovery code are refused everywhere.
  const right = await submitCode(config, waiting.jar, codeFor(victim.secret))
  expect(right.headers.get("location")).toContain("error=RateLimited")
  const recovery = await postForm(config, owner.jar, "/auth/two-factor/disable", {
    code: victim.recoveryCodes[0]!,
  })
  expect(recovery.status).toBe(429)
  expect((await backend.adapter.getTwoFactor!(ADA.id!))?.enabledAt).toBeTruthy()
  expect(await session(config, waiting.jar)).toBeNull()
})
