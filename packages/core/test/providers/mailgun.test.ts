/** Mailgun against a stand-in of api.mailgun.net (and the EU host). */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Mailgun from "@tessera/core/providers/mailgun"

const suite = runProviderTests({
  provider: Mailgun,
  from: "Acme <no-reply@mg.acme.example>",
  api: {
    url: "https://api.mailgun.net/v3/mg.acme.example/messages",
    check({ request, form, apiKey, from, to, link }) {
      expect(request.headers.get("authorization")).toBe(`Basic ${btoa(`api:${apiKey}`)}`)
      expect(request.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/)
      expect(Object.fromEntries(form)).toEqual({
        from,
        to,
        subject: "Sign in to localhost:3000",
        text: expect.stringContaining(link.href),
        html: expect.stringContaining("Sign in"),
      })
    },
    success: () =>
      json({ id: "<20240101000000.1.ABC@mg.acme.example>", message: "Queued. Thank you." }),
    failure: () => new Response("Forbidden", { status: 401 }),
  },
})

test("region EU and an explicit domain", async () => {
  suite.standIn.on("POST", "https://api.eu.mailgun.net/v3/mg.eu.example/messages", () =>
    json({ id: "<x@mg.eu.example>", message: "Queued. Thank you." }),
  )
  const provider = suite.provider({ region: "EU", domain: "mg.eu.example" })
  const { options, ...defaults } = provider as any
  const resolved = { ...defaults, ...options }
  await resolved.sendVerificationRequest({
    identifier: "ada@example.test",
    url: "http://localhost:3000/auth/callback/mailgun?token=t&email=ada%40example.test",
    token: "t",
    expires: new Date(Date.now() + 60_000),
    provider: resolved,
    theme: {},
    request: new Request("http://localhost:3000"),
  })
  expect(
    suite.standIn.requestsTo("https://api.eu.mailgun.net/v3/mg.eu.example/messages"),
  ).toHaveLength(1)
})
