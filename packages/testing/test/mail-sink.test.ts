/**
 * The mail sink of `@tessera/testing`: real nodemailer messages in, decoded
 * text out (quoted-printable, base64, encoded-word subjects, multipart).
 */
import nodemailer from "nodemailer"
import { afterAll, beforeAll, expect, test } from "vitest"
import { startMailSink, type MailSink } from "@tessera/testing"

let sink: MailSink
beforeAll(async () => {
  sink = await startMailSink({ rejectRecipient: (address) => address.startsWith("nobody@") })
})
afterAll(async () => {
  await sink?.stop()
})

const transport = () => nodemailer.createTransport(sink.url)

test("listens on 127.0.0.1 and decodes quoted-printable text and HTML parts", async () => {
  expect(sink.host).toBe("127.0.0.1")
  expect(sink.url).toBe(`smtp://127.0.0.1:${sink.port}`)
  const long = `https://app.example/auth/callback/email?token=${"f".repeat(64)}&email=ada%40example.com`
  await transport().sendMail({
    from: "app@example.com",
    to: "qp@example.com",
    subject: "Hi",
    text: `Link: ${long}\n`,
    html: `<a href="${long}">Sign in – now</a>`,
  })
  const mail = await sink.waitForMessage((m) => m.to.includes("qp@example.com"))
  expect(mail.raw).toMatch(/quoted-printable/i)
  expect(mail.text).toBe(`Link: ${long}\n`)
  expect(mail.html).toBe(`<a href="${long}">Sign in – now</a>`)
  expect(mail.from).toBe("app@example.com")
})

test("decodes base64 bodies and encoded-word subjects, skipping attachments", async () => {
  await transport().sendMail({
    from: "app@example.com",
    to: "b64@example.com",
    subject: "Connexion à Ünïcödé ✓",
    text: "Grüße ✓",
    textEncoding: "base64",
    attachments: [{ filename: "a.txt", content: "not the body" }],
  })
  const mail = await sink.waitForMessage((m) => m.to.includes("b64@example.com"))
  expect(mail.subject).toBe("Connexion à Ünïcödé ✓")
  expect(mail.text).toBe("Grüße ✓")
  expect(mail.html).toBe("")
})

test("waitForMessage waits for a later message and times out clearly", async () => {
  const waiting = sink.waitForMessage((m) => m.to.includes("later@example.com"), 3000)
  setTimeout(
    () =>
      void transport().sendMail({
        from: "app@example.com",
        to: "later@example.com",
        subject: "Later",
        text: "x",
      }),
    50,
  )
  expect((await waiting).subject).toBe("Later")
  await expect(sink.waitForMessage((m) => m.to.includes("never@example.com"), 100)).rejects.toThrow(
    /no matching message within 100 ms/,
  )
})

test("rejectRecipient refuses chosen recipients with 550", async () => {
  await expect(
    transport().sendMail({ from: "app@example.com", to: "nobody@example.com", text: "x" }),
  ).rejects.toMatchObject({ responseCode: 550 })
  expect(sink.messages.some((m) => m.to.includes("nobody@example.com"))).toBe(false)
})
