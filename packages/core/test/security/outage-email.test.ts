/**
 * E-mail sign-in while the mail server is down or hangs. nodemailer's own
 * bounds (2 min to connect, 30 s for the greeting, 10 min of silence) let a
 * hung SMTP server hold the sign-in POST open for minutes; Tessera's Nodemailer
 * provider fills in 10 s / 10 s / 30 s where the app set none. An HTTP mail API
 * gets the same bound as every other outgoing request (10 s, as the request's
 * `signal`).
 *
 * Each outage must answer with the sign-in page's `error=EmailSignin`, be
 * logged once at error level, leak neither the link nor the address, and leave
 * no usable verification token for a mail that never went out.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, customFetch, type AuthConfig } from "@tessera/core"
import Email, { type EmailSendVerificationRequestParams } from "@tessera/core/providers/email"
import Nodemailer from "@tessera/core/providers/nodemailer"
import Resend from "@tessera/core/providers/resend"
import { MemoryAdapter, startMailSink, type MailSink } from "@tessera/testing"
import { csrfToken, get, makeConfig, ORIGIN, post } from "../harness/index.js"
import {
  boundHonouringFetch,
  closedPort,
  signInPageError,
  startHungPeer,
  timed,
  type HungPeer,
} from "../harness/unresponsive.js"
import { follow, linkIn, loggedText, requestLink, uniqueAddress } from "../flows/email/fixtures.js"

const ANSWER_WITHIN_MS = 3_000
const TEST_TIMEOUT_MS = 8_000

/** The small `sendTimeout` the tests of the bound configure (the default is 30 s). */
const SMALL_BOUND_MS = 300

let hung: HungPeer
let sink: MailSink
/** A real SMTP server that takes each message and never answers it (until `release()`). */
let stalled: MailSink
beforeAll(async () => {
  ;[hung, sink, stalled] = await Promise.all([
    startHungPeer(),
    startMailSink(),
    startMailSink({ holdMessages: true }),
  ])
})
afterAll(async () => {
  await Promise.all([hung?.stop(), sink?.stop(), stalled?.stop()])
})

function setup(provider: AuthConfig["providers"][number]) {
  const adapter = MemoryAdapter()
  const { config, log } = makeConfig({ adapter, providers: [provider] })
  return { config, log, tokens: adapter.store.verificationTokens }
}

/** The sign-in page's `error` value the answer sends the browser to. */
const errorOf = (response: Response) => signInPageError(response, ORIGIN)

async function expectCleanFailure(
  response: Response,
  setupResult: ReturnType<typeof setup>,
  address: string,
) {
  expect(errorOf(response)).toBe("EmailSignin")
  expect(setupResult.log.logged).toEqual([expect.objectContaining({ type: "EmailDeliveryError" })])
  const logged = loggedText(setupResult.log.errors)
  const answer = `${response.headers.get("location")}\n${await response.text()}`
  for (const text of [logged, answer]) {
    expect(text).not.toContain(address)
    expect(text).not.toMatch(/token=/)
  }
  // The link never went out: no token of it is left to be used.
  expect(setupResult.tokens.size).toBe(0)
}

describe("Nodemailer while the SMTP server is out", () => {
  test(
    "hangs (accepts, never greets), bounds set in `server`: the error page within them",
    async () => {
      const address = uniqueAddress()
      const s = setup(
        Nodemailer({
          server: {
            host: "127.0.0.1",
            port: hung.port,
            connectionTimeout: 300,
            greetingTimeout: 300,
          },
          from: "auth@example.com",
        }),
      )
      const { value, ms } = await timed(() => requestLink(s.config, address))
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS)
      await expectCleanFailure(value.response, s, address)
    },
    TEST_TIMEOUT_MS,
  )

  test(
    "hangs, a bound set in the connection URL's query: kept (not the default's 10 s), the error page within it",
    async () => {
      const address = uniqueAddress()
      const s = setup(
        Nodemailer({
          server: `smtp://127.0.0.1:${hung.port}?greetingTimeout=300`,
          from: "auth@example.com",
        }),
      )
      const { value, ms } = await timed(() => requestLink(s.config, address))
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS)
      await expectCleanFailure(value.response, s, address)
    },
    TEST_TIMEOUT_MS,
  )

  test("is down (connection refused): the error page at once", async () => {
    const address = uniqueAddress()
    const s = setup(
      Nodemailer({ server: `smtp://127.0.0.1:${await closedPort()}`, from: "auth@example.com" }),
    )
    const { response } = await requestLink(s.config, address)
    await expectCleanFailure(response, s, address)
  })

  /**
   * The bounds nodemailer connects with, as its `getSocket` hook sees them (the options the
   * SMTP connection is made with), for a sign-in through a working server: waiting for the
   * defaults themselves to run out would take 10 s.
   */
  async function boundsUsed(server: Record<string, unknown>) {
    let seen: Record<string, unknown> | undefined
    const getSocket = (options: Record<string, unknown>, callback: (e: null, s: false) => void) => {
      seen = options
      setImmediate(() => callback(null, false))
    }
    const address = uniqueAddress()
    const s = setup(Nodemailer({ server: { ...server, getSocket }, from: "auth@example.com" }))
    const { response } = await requestLink(s.config, address)
    expect(new URL(response.headers.get("location")!).pathname).toBe("/auth/verify-request")
    await sink.waitForMessage((m) => m.to.includes(address))
    const { connectionTimeout, greetingTimeout, socketTimeout } = seen ?? {}
    return { connectionTimeout, greetingTimeout, socketTimeout }
  }

  test("no bounds set: nodemailer connects with 10 s / 10 s / 30 s, not its 2 min / 30 s / 10 min", async () => {
    expect(await boundsUsed({ host: "127.0.0.1", port: sink.port })).toEqual({
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    })
  })

  test("the app's own bounds win over the defaults", async () => {
    expect(
      await boundsUsed({ host: "127.0.0.1", port: sink.port, greetingTimeout: 5_000 }),
    ).toEqual({ connectionTimeout: 10_000, greetingTimeout: 5_000, socketTimeout: 30_000 })
  })

  test("a working server still gets the link (the defaults change nothing there)", async () => {
    const address = uniqueAddress()
    const s = setup(Nodemailer({ server: sink.url, from: "auth@example.com" }))
    const { response } = await requestLink(s.config, address)
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).pathname).toBe("/auth/verify-request")
    await sink.waitForMessage((m) => m.to.includes(address))
    expect(s.tokens.size).toBe(1)
  })
})

describe("an HTTP mail API (Resend) while it hangs", () => {
  test(
    "the request carries the bound: the error page within it",
    async () => {
      const transport = boundHonouringFetch(300)
      // The API's host is this loopback peer that never answers.
      const toHungPeer: typeof fetch = (input, init) =>
        transport.fetch(`${hung.url}${new URL(String(input)).pathname}`, init)
      const address = uniqueAddress()
      const s = setup(
        Resend({
          apiKey: "re_test_key_0123456789",
          from: "auth@example.com",
          [customFetch]: toHungPeer,
        }),
      )
      const { value, ms } = await timed(() =>
        requestLink(s.config, address, { providerId: "resend" }),
      )
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS)
      expect(transport.seen.every((request) => request.bounded)).toBe(true)
      await expectCleanFailure(value.response, s, address)
      expect(loggedText(s.log.errors)).not.toContain("re_test_key_0123456789")
    },
    TEST_TIMEOUT_MS,
  )
})

/**
 * A sending that never settles: a mail server that takes the message and never
 * answers it (nodemailer's own bounds measure silence, so one the app set long,
 * or a server that trickles, never ends it), or an app's own
 * `sendVerificationRequest` awaiting something that never comes. Tessera bounds
 * the whole call (`sendTimeout`, default 30 s) and ends it as a send that threw.
 * Without the bound these tests run into their own timeout.
 */
describe("a sendVerificationRequest that never settles", () => {
  /** A `sendVerificationRequest` that settles only when the test says so (or never). */
  function pendingSend() {
    const settle: { resolve?: () => void; reject?: (error: Error) => void } = {}
    let calls = 0
    let sent: EmailSendVerificationRequestParams | undefined
    const send = (params: EmailSendVerificationRequestParams) =>
      new Promise<void>((resolve, reject) => {
        calls++
        sent = params
        Object.assign(settle, { resolve, reject })
      })
    return {
      send,
      settle,
      /** What the sender was given (the code the user never got). */
      get sent() {
        return sent
      },
      get calls() {
        return calls
      },
    }
  }

  function expectLoggedOnce(s: ReturnType<typeof setup>, provider: string) {
    expect(s.log.logged).toEqual([
      expect.objectContaining({
        type: "EmailDeliveryError",
        cause: `E-mail provider "${provider}" did not send the sign-in e-mail within ${SMALL_BOUND_MS} ms`,
      }),
    ])
    expect(s.log.errors[0]).toMatchObject({ cause: { provider } })
  }

  test(
    "Nodemailer, the SMTP server takes the message and never answers: the error page within the bound; the mail that arrives late carries a dead link",
    async () => {
      const address = uniqueAddress()
      const s = setup(
        Nodemailer({
          server: stalled.url,
          from: "auth@example.com",
          sendTimeout: SMALL_BOUND_MS,
        }),
      )
      const { value, ms } = await timed(() => requestLink(s.config, address))
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS)
      await expectCleanFailure(value.response, s, address)
      expectLoggedOnce(s, "nodemailer")

      // The server did get the message, and answers it at last: the user may still
      // receive it, but was told the sign-in failed, so its link must not sign in.
      const late = await stalled.waitForMessage((m) => m.to.includes(address))
      stalled.release()
      const { response } = await follow(s.config, linkIn(late))
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
      expect(response.headers.getSetCookie().join()).not.toMatch(/session-token=[^;]/)
      // The late answer is listened to by no one: nothing more is logged.
      expect(s.log.errors).toHaveLength(1)
    },
    TEST_TIMEOUT_MS,
  )

  test(
    "an app's own sender, link: the error page, no token left, a late rejection swallowed",
    async () => {
      const pending = pendingSend()
      const address = uniqueAddress()
      const s = setup(Email({ sendVerificationRequest: pending.send, sendTimeout: SMALL_BOUND_MS }))
      const { value, ms } = await timed(() =>
        requestLink(s.config, address, { providerId: "email" }),
      )
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS)
      expect(pending.calls).toBe(1)
      await expectCleanFailure(value.response, s, address)
      expectLoggedOnce(s, "email")
      // The sender fails at last: the rejection is already listened to (never unhandled).
      pending.settle.reject!(new Error(`could not reach the mail API for ${address}`))
      await new Promise((resolve) => setImmediate(resolve))
      expect(s.log.errors).toHaveLength(1)
    },
    TEST_TIMEOUT_MS,
  )

  test(
    "an app's own sender, one-time code: the error page, no code left, a late success ignored",
    async () => {
      const pending = pendingSend()
      const address = uniqueAddress()
      const s = setup(
        Email({
          sendVerificationRequest: pending.send,
          sendTimeout: SMALL_BOUND_MS,
          method: "code",
        }),
      )
      const { response, jar } = await requestLink(s.config, address, { providerId: "email" })
      expect(errorOf(response)).toBe("EmailSignin")
      expectLoggedOnce(s, "email")
      expect(loggedText(s.log.errors)).not.toContain(address)
      pending.settle.resolve!()
      await new Promise((resolve) => setImmediate(resolve))
      expect(s.log.errors).toHaveLength(1)
      // The code the user was told never came does not sign in (it was taken out).
      const code = pending.sent!.code!
      expect(code).toMatch(/^\d{8}$/)
      expect(loggedText(s.log.errors)).not.toContain(code)
      const { token } = await csrfToken(s.config, jar)
      const entered = await Auth(
        post("/auth/callback/email", { email: address, code, csrfToken: token }, { jar }),
        s.config,
      )
      expect(entered.status).toBe(302)
      expect(entered.headers.get("location")).toMatch(/[?&]error=/)
      expect(entered.headers.getSetCookie().join()).not.toMatch(/session-token=[^;]/)
    },
    TEST_TIMEOUT_MS,
  )

  test("a sender within the bound signs in as before", async () => {
    const address = uniqueAddress()
    const s = setup(Nodemailer({ server: sink.url, from: "auth@example.com", sendTimeout: 10_000 }))
    const { response } = await requestLink(s.config, address)
    expect(new URL(response.headers.get("location")!).pathname).toBe("/auth/verify-request")
    const mail = await sink.waitForMessage((m) => m.to.includes(address))
    const { response: signedIn } = await follow(s.config, linkIn(mail))
    expect(signedIn.headers.getSetCookie().join()).toMatch(/session-token=[^;]/)
    expect(s.log.errors).toEqual([])
  })

  test("sendTimeout must be a positive number of milliseconds, checked at configuration", async () => {
    for (const sendTimeout of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "30s", 2 ** 31]) {
      const s = setup(
        Email({ sendVerificationRequest: () => undefined, sendTimeout: sendTimeout as never }),
      )
      const response = await Auth(get("/auth/session"), s.config)
      expect(response.status).toBe(500)
      expect(s.log.errors[0]?.message).toMatch(/E-mail provider "email": sendTimeout/)
    }
  })
})
