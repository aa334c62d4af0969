/**
 * Auth.js v5's e-mail provider snippets (authjs.dev/getting-started/authentication/email,
 * guides/configuring-resend, reference/core/providers/nodemailer), imports changed to
 * `@tessera/*`: `Nodemailer({ server, from })`, a custom `sendVerificationRequest`
 * with nodemailer's `createTransport(provider.server)`, and `Resend({ apiKey, from })`.
 */
import { createTransport } from "nodemailer"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { MemoryAdapter, startMailSink, type MailSink } from "@tessera/testing"
import type { AuthConfig } from "@tessera/core"
import Nodemailer from "@tessera/core/providers/nodemailer"
import Resend from "@tessera/core/providers/resend"
import { Browser, SECRET } from "../harness/index.js"

let sink: MailSink
beforeAll(async () => {
  sink = await startMailSink()
})
afterAll(async () => {
  await sink?.stop()
})

/** Signs in by the link in the mail; answers the browser's session. */
async function signInByMail(config: AuthConfig, address: string) {
  const browser = new Browser(config)
  const csrfToken = await browser.csrfToken()
  const sent = await browser.request("/auth/signin/nodemailer", {
    body: { email: address, csrfToken, callbackUrl: "/welcome" },
  })
  expect(sent.status).toBe(302)
  expect(new URL(sent.headers.get("location")!).pathname).toBe("/auth/verify-request")
  const mail = await sink.waitForMessage((m) => m.to.includes(address))
  const link = /https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(mail.text)![0]
  const done = await browser.request(link)
  expect(done.status).toBe(302)
  expect(done.headers.get("location")).toBe("http://localhost:3000/welcome")
  return { browser, mail }
}

describe("Nodemailer (authjs.dev/getting-started/authentication/email)", () => {
  test("Nodemailer({ server, from }) mails a link that signs in", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      providers: [Nodemailer({ server: sink.url, from: "noreply@example.com" })],
    }
    const { browser, mail } = await signInByMail(config, "ada@example.com")
    expect(mail.from).toBe("noreply@example.com")
    expect((await browser.session()).user.email).toBe("ada@example.com")
  })

  test("a custom sendVerificationRequest with createTransport(provider.server)", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      providers: [
        Nodemailer({
          server: sink.url,
          from: "noreply@example.com",
          async sendVerificationRequest(params) {
            const { identifier, url, provider } = params
            const { host } = new URL(url)
            // (`as string`: with `server` typed loosely, @types/nodemailer picks its SMTP-pool
            // overload, whose result has no `pending`; Auth.js types it no tighter.)
            const transport = createTransport(provider.server as string)
            const result = await transport.sendMail({
              to: identifier,
              from: provider.from,
              subject: `Sign in to ${host}`,
              text: `Sign in to ${host}\n${url}\n\n`,
              html: `<a href="${url}">Sign in</a>`,
            })
            const failed = result.rejected.concat(result.pending).filter(Boolean)
            if (failed.length) {
              throw new Error(`Email (${failed.join(", ")}) could not be sent`)
            }
          },
        }),
      ],
    }
    const { browser, mail } = await signInByMail(config, "grace@example.com")
    expect(mail.subject).toBe("Sign in to localhost:3000")
    expect((await browser.session()).user.email).toBe("grace@example.com")
  })
})

describe("authjs.dev/guides/extending-the-session (database sessions)", () => {
  test("session({ session, user }) { session.user.id = user.id }", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      providers: [Nodemailer({ server: sink.url, from: "noreply@example.com" })],
      callbacks: {
        session({ session, user }) {
          session.user.id = user.id
          return session
        },
      },
    }
    const { browser } = await signInByMail(config, "mary@example.com")
    const session = await browser.session()
    expect(session.user.email).toBe("mary@example.com")
    expect(typeof session.user.id).toBe("string")
    expect(session.user.id.length).toBeGreaterThan(0)
  })
})

describe("Resend (authjs.dev/guides/configuring-resend)", () => {
  test("Resend({ apiKey, from }) is accepted and offered on the sign-in page", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      providers: [Resend({ apiKey: "re_123", from: "no-reply@company.com" })],
    }
    const providers = await (await new Browser(config).fetch("/auth/providers")).json()
    expect(providers).toMatchObject({ resend: { id: "resend", type: "email" } })
  })
})
