/**
 * Red team 13: password spraying from one IP address past `credentialsIp`
 * (failed sign-ins per IP address) with one burst of concurrent requests, a
 * different username each (so no per-identifier lockout applies). The IP
 * count was made after each attempt failed: every request of the burst
 * passed the check while the others were still in `authorize` (which hashes a
 * password, slowly by design), so one burst got as many guesses as it had
 * requests. Now every attempt counts when it starts and a success takes its
 * own count back, so a burst gets `max` guesses and the rest are refused; a
 * success still clears no one else's failures. Through `Auth()`, `authorize`
 * held until the whole burst has arrived (no timers).
 */
import { expect, test } from "vitest"
import { Auth } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { csrfToken, makeConfig, ORIGIN, post } from "../harness/index.js"

const BURST = 12
const MAX = 3

/** `burst`: hold `authorize` until that many requests are each in it or answered. */
function sprayTarget(burst?: number, clock?: { now: number }, hold?: Promise<void>) {
  let started = 0
  let settled = 0
  let release!: () => void
  const gate = burst ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve()
  const progress = () => {
    if (started + settled === burst) release()
  }
  const { config } = makeConfig({
    rateLimit: {
      store: new MemoryRateLimitStore(),
      ipHeader: "x-forwarded-for",
      credentialsIp: { max: MAX, window: 900 },
      ...(clock ? { now: () => clock.now } : {}),
    },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        async authorize({ username, password }) {
          started++
          progress()
          await gate
          await hold
          return username === "ada" && password === "correct horse" ? { id: "ada" } : null
        },
      }),
    ],
  })
  const attempt = async (username: string, password = "Summer2030!") => {
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        { username, password, csrfToken: token },
        { jar, headers: { "x-forwarded-for": "203.0.113.7" } },
      ),
      config,
    )
    settled++
    progress()
    return response.headers.get("location")
  }
  return { attempt, authorized: () => started }
}

test("one burst of concurrent guesses at many usernames gets the IP's max, not one each", async () => {
  const { attempt, authorized } = sprayTarget(BURST)
  const answers = await Promise.all(
    Array.from({ length: BURST }, (_, i) => attempt(`user${i}@example.com`)),
  )
  expect(authorized()).toBe(MAX)
  expect(answers.filter((a) => a === `${ORIGIN}/auth/signin?error=RateLimited`)).toHaveLength(
    BURST - MAX,
  )
})

test("successes from the address take back only their own count: failures still add up to the lock", async () => {
  const { attempt } = sprayTarget()
  const limited = `${ORIGIN}/auth/signin?error=RateLimited`
  const answers: (string | null)[] = []
  for (let i = 0; i < BURST; i++) answers.push(await attempt("ada", "correct horse"))
  expect(answers.every((a) => a === ORIGIN)).toBe(true)
  for (let i = 0; i < MAX; i++) expect(await attempt(`user${i}@example.com`)).not.toBe(limited)
  expect(await attempt("ada", "correct horse")).toBe(limited)
})

test("successes that started before a window boundary free no failures after it", async () => {
  const window = 900_000
  const start = Date.parse("2030-01-01T00:00:00Z")
  const clock = { now: start + window - 1000 }
  let release!: () => void
  const hold = new Promise<void>((resolve) => (release = resolve))
  const { attempt, authorized } = sprayTarget(undefined, clock, hold)
  // Two sign-ins with the right password, counted in the last second of one window...
  const held = [attempt("ada", "correct horse"), attempt("ada", "correct horse")]
  while (authorized() < 2) await new Promise((resolve) => setImmediate(resolve))
  // ... answered in the last second of the next, where that window's weight is all but gone.
  clock.now = start + 2 * window - 1000
  release()
  expect(await Promise.all(held)).toEqual([ORIGIN, ORIGIN])
  const limited = `${ORIGIN}/auth/signin?error=RateLimited`
  const answers: (string | null)[] = []
  for (let i = 0; i < MAX + 2; i++) answers.push(await attempt(`user${i}@example.com`))
  expect(answers.filter((a) => a !== limited)).toHaveLength(MAX)
})
