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
import { customFetch, type AuthConfig } from "@tessera/core"
import Nodemailer from "@tessera/core/providers/nodemailer"
import Resend from "@tessera/core/providers/resend"
import { MemoryAdapter, startMailSink, type MailSink } from "@tessera/testing"
import { makeConfig, ORIGIN } from "../harness/index.js"
import {
  boundHonouringFetch,
  closedPort,
  signInPageError,
  startHungPeer,
  timed,
  type HungPeer,
} from "../harness/unresponsive.js"
import { loggedText, requestLink, uniqueAddress } from "../flows/email/fixtures.js"

const ANSWER_WITHIN_MS = 3_000
const TEST_TIMEOUT_MS = 8_000

let hung: HungPeer
let sink: MailSink
beforeAll(async () => {
  ;[hung, sink] = await Promise.all([startHungPeer(), startMailSink()])
})
afterAll(async () => {
  await Promise.all([hung?.stop(), sink?.stop()])
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
