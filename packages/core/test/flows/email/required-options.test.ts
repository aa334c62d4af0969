/**
 * The HTTP mail API providers' own senders cannot send without their API key
 * (Loops: nor without `transactionalId`). A configuration missing one is
 * refused at start (500, `error=Configuration`, one error naming the option and
 * its variable), as `Nodemailer` without `server` is, not on a user's first
 * sign-in. Auth.js sends `Authorization: Bearer undefined` and fails then.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import Resend from "@tessera/core/providers/resend"
import SendGrid from "@tessera/core/providers/sendgrid"
import Postmark from "@tessera/core/providers/postmark"
import ForwardEmail from "@tessera/core/providers/forwardemail"
import Mailgun from "@tessera/core/providers/mailgun"
import Loops from "@tessera/core/providers/loops"
import { memoryBackend } from "../../harness/backends.js"
import { makeConfig, ORIGIN } from "../../harness/index.js"

const FROM = "no-reply@acme.example"
type Factory = (options: Record<string, unknown>) => { id: string }
const FACTORIES: [string, Factory][] = [
  ["resend", Resend as Factory],
  ["sendgrid", SendGrid as Factory],
  ["postmark", Postmark as Factory],
  ["forwardemail", ForwardEmail as Factory],
  ["mailgun", Mailgun as Factory],
  ["loops", Loops as Factory],
]

async function signInPage(provider: unknown) {
  const { config, log } = makeConfig({ adapter: memoryBackend().adapter, providers: [provider] })
  const response = await Auth(new Request(`${ORIGIN}/auth/signin`), config)
  return { response, log }
}

describe.each(FACTORIES)("%s", (id, factory) => {
  test("without an API key, the configuration is refused at start, naming it", async () => {
    const { response, log } = await signInPage(factory({ from: FROM, transactionalId: "tx_1" }))
    expect(response.status).toBe(500)
    expect(response.headers.get("location") ?? "").not.toContain("EmailSignin")
    expect(log.errors).toHaveLength(1)
    const message = (log.errors[0] as Error).message
    expect(message).toContain("apiKey")
    expect(message).toContain(`AUTH_${id.toUpperCase()}_KEY`)
  })

  test("with its API key, the sign-in page is served", async () => {
    const { response, log } = await signInPage(
      factory({ from: FROM, apiKey: "key_1234", transactionalId: "tx_1" }),
    )
    expect(response.status).toBe(200)
    expect(log.errors).toHaveLength(0)
  })

  test("with the app's own sendVerificationRequest, no key is asked for", async () => {
    const { response } = await signInPage(
      factory({ from: FROM, sendVerificationRequest: async () => {} }),
    )
    expect(response.status).toBe(200)
  })
})

test("Loops without transactionalId is refused at start, naming it", async () => {
  const { response, log } = await signInPage(Loops({ apiKey: "key_1234" }))
  expect(response.status).toBe(500)
  expect((log.errors[0] as Error).message).toContain("transactionalId")
})
