/**
 * Red team, round 7: getting round the credentials lockout without guessing
 * less.
 *
 * Clearing someone else's lockout with a look-alike account of one's own. The
 * lockout counts failures under the identifier folded as the loosest database
 * collation would (`Ada`, `ADA`, `adá` and `ａｄａ` share one count), and a
 * successful sign-in clears that count. In an app whose database is stricter
 * than the fold (PostgreSQL's default `=` tells `ada` from `adá` and from
 * `ADA`), the attacker registers `adá`, guesses Ada's password 9 times, signs
 * in to their own `adá` (which clears the shared count), and goes on: the
 * lockout never engaged. A success now takes back its own attempt and clears
 * the rest only when every failure counted was made under its own exact
 * spelling (round 8; round 7 cleared once per window, which still bought the
 * attacker a second round of guesses per window): a look-alike's successes
 * buy no guesses, and the right password is still refused after.
 *
 * Flooding the default (memory) store. It keeps at most `maxKeys` counters
 * and, when full, used to drop the oldest: an attacker who had locked `ada`
 * sent attempts under enough fresh identifiers to push her counter out, and
 * guessed again. A full store now drops the counters with the fewest hits
 * first (a flood's have 1 each).
 */
import { expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { createRateLimiter, MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { csrfToken, makeConfig, ORIGIN, post, setsSession } from "../harness/index.js"

/** Two distinct accounts, as an exact-match (collation-strict) lookup keeps them. */
const USERS: Record<string, string> = { ada: "victim's secret", adá: "attacker's own" }

function app(store?: MemoryRateLimitStore, limits: Record<string, unknown> = {}): AuthConfig {
  const clock = { now: Date.parse("2030-01-01T00:00:00Z") }
  return makeConfig({
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          typeof username === "string" && USERS[username] === password
            ? { id: username, name: username }
            : null,
      }),
    ],
    rateLimit: {
      store: store ?? new MemoryRateLimitStore({ now: () => clock.now }),
      now: () => clock.now,
      ...limits,
    },
  }).config
}

async function attempt(config: AuthConfig, username: string, password: string) {
  const { token, jar } = await csrfToken(config)
  const response = await Auth(
    post("/auth/callback/credentials", { username, password, csrfToken: token }, { jar }),
    config,
  )
  return { location: response.headers.get("location"), signedIn: setsSession(response) }
}

const WRONG = `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`

test("a look-alike account's successes cannot keep clearing the victim's lockout", async () => {
  const config = app()
  let guessed = 0
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < 9; i++) {
      if ((await attempt(config, "ada", `guess ${round}-${i}`)).location === WRONG) guessed++
    }
    // The attacker's own account, whose name folds to the victim's.
    await attempt(config, "adá", "attacker's own")
  }
  // Default limit: 10 per window, and the look-alike's successes clear none of it.
  expect(guessed).toBeLessThanOrEqual(10)
  const locked = await attempt(config, "ada", "victim's secret")
  expect(locked.signedIn).toBe(false)
  expect(locked.location).toBe(`${ORIGIN}/auth/signin?error=RateLimited`)
})

test("succeeded: takes its own hit back; the first success of a window clears the rest, later ones do not", async () => {
  const clock = { now: Date.parse("2030-01-01T00:00:00Z") }
  const limiter = createRateLimiter({
    secret: "a-test-secret-that-is-long-enough-0123456789",
    rules: { signin: { max: 3, window: 60 } },
    store: new MemoryRateLimitStore({ now: () => clock.now }),
    now: () => clock.now,
  })
  // Many successes alone never add up: each takes its own hit back.
  for (let i = 0; i < 10; i++) {
    expect((await limiter.hit("signin", "ada")).limited).toBe(false)
    await limiter.succeeded("signin", "ada")
  }
  expect((await limiter.check("signin", "ada")).remaining).toBe(3)
  // Failures after the window's clearing success stay, whatever succeeds after them.
  for (let i = 0; i < 2; i++) await limiter.hit("signin", "ada")
  await limiter.hit("signin", "ada")
  await limiter.succeeded("signin", "ada")
  expect((await limiter.check("signin", "ada")).remaining).toBe(1)
  // The next window may clear again.
  clock.now += 120_000
  await limiter.hit("signin", "ada")
  await limiter.succeeded("signin", "ada")
  expect((await limiter.check("signin", "ada")).remaining).toBe(3)
})

test("a flood of fresh identifiers does not push a locked identifier's counter out of the memory store", async () => {
  const store = new MemoryRateLimitStore({ maxKeys: 40 })
  const config = app(store, { credentials: { max: 3, window: 900 } })
  for (let i = 0; i < 3; i++) await attempt(config, "ada", `guess ${i}`)
  expect((await attempt(config, "ada", "victim's secret")).location).toBe(
    `${ORIGIN}/auth/signin?error=RateLimited`,
  )
  for (let i = 0; i < 200; i++) await attempt(config, `junk-${i}`, "x")
  expect(store.size).toBeLessThanOrEqual(40)
  const after = await attempt(config, "ada", "victim's secret")
  expect(after.signedIn).toBe(false)
  expect(after.location).toBe(`${ORIGIN}/auth/signin?error=RateLimited`)
})
