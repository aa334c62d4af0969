/**
 * Red team 13: spellings of one TOTP code. A code used once must stay used
 * however it is typed again (spaces, no-break spaces, a tab), and digits that
 * only look like ASCII ones (full-width, Arabic-Indic) are no code at all:
 * neither a second use of the step nor a way around the "once" rule. Nor is
 * a longer string holding the code (leading zeros, a seventh digit). Held
 * when tried (the step, not the string, is what is recorded); pinned here.
 * Through `Auth()`, credentials first, on the memory adapter.
 */
import { afterEach, expect, test, vi } from "vitest"
import { memoryBackend } from "../harness/backends.js"
import { credentialsProvider, makeConfig, ORIGIN, setsSession, signIn } from "../harness/index.js"
import { codeFor, enableTwoFactor, fakeClock, Jar, submitCode } from "../two-factor/helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

const toDigits = (code: string, zero: number) =>
  [...code].map((d) => String.fromCodePoint(zero + Number(d))).join("")

test("a used code, typed again with spaces or look-alike digits, finishes no other sign-in", async () => {
  const clock = fakeClock()
  const { config } = makeConfig({
    adapter: memoryBackend().adapter,
    session: { strategy: "jwt" },
    // Guesses are what this test makes on purpose: the lockout is tested elsewhere.
    rateLimit: { twoFactor: { max: 50, window: 900 } },
    providers: [credentialsProvider()],
  })
  const { jar: owner } = await signIn(config)
  const { secret } = await enableTwoFactor(config, owner)
  clock.nextStep(90)

  const first = new Jar()
  await signIn(config, undefined, { jar: first })
  const code = codeFor(secret)
  expect(setsSession(await submitCode(config, first, code))).toBe(true)

  const second = new Jar()
  expect((await signIn(config, undefined, { jar: second })).response.headers.get("location")).toBe(
    `${ORIGIN}/auth/two-factor`,
  )
  for (const spelling of [
    code,
    ` ${code} `,
    `${code.slice(0, 3)} ${code.slice(3)}`,
    `${code.slice(0, 3)}\u00a0${code.slice(3)}`,
    `${code}\t`,
    `0${code}`,
    `${code}0`,
    toDigits(code, 0xff10), // full-width
    toDigits(code, 0x0660), // Arabic-Indic
  ]) {
    const answer = await submitCode(config, second, spelling)
    expect(setsSession(answer), JSON.stringify(spelling)).toBe(false)
    expect(answer.headers.get("location")).toContain("error=TwoFactor")
  }
  // The next step's code, typed with a space, still finishes the waiting sign-in.
  clock.nextStep()
  const next = codeFor(secret)
  const done = await submitCode(config, second, `${next.slice(0, 3)} ${next.slice(3)}`)
  expect(setsSession(done)).toBe(true)
})
