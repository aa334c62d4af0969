/** SendGrid against a stand-in of api.sendgrid.com. */
import { expect } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import SendGrid from "@tessera/core/providers/sendgrid"

runProviderTests({
  provider: SendGrid,
  api: {
    url: "https://api.sendgrid.com/v3/mail/send",
    check({ request, json: body, apiKey, to, link }) {
      expect(request.headers.get("authorization")).toBe(`Bearer ${apiKey}`)
      expect(body).toEqual({
        personalizations: [{ to: [{ email: to }] }],
        // "Acme <no-reply@acme.example>" as SendGrid's object.
        from: { email: "no-reply@acme.example", name: "Acme" },
        subject: "Sign in to localhost:3000",
        content: [
          { type: "text/plain", value: expect.stringContaining(link.href) },
          { type: "text/html", value: expect.stringContaining("Sign in") },
        ],
      })
    },
    success: () => new Response(null, { status: 202 }),
    failure: () =>
      json(
        {
          errors: [
            {
              message: "The from address does not match a verified Sender Identity.",
              field: "from",
              help: null,
            },
          ],
        },
        403,
      ),
  },
})
