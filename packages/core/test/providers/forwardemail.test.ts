/** Forward Email against a stand-in of api.forwardemail.net. */
import { expect } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import ForwardEmail from "@tessera/core/providers/forwardemail"

runProviderTests({
  provider: ForwardEmail,
  api: {
    url: "https://api.forwardemail.net/v1/emails",
    check({ request, json: body, apiKey, from, to, link }) {
      expect(request.headers.get("authorization")).toBe(`Basic ${btoa(`${apiKey}:`)}`)
      expect(body).toEqual({
        from,
        to,
        subject: "Sign in to localhost:3000",
        text: expect.stringContaining(link.href),
        html: expect.stringContaining("Sign in"),
      })
    },
    success: () => json({ id: "65a0b0c0d0e0f00000000001", status: "queued" }),
    failure: () =>
      json({ statusCode: 400, error: "Bad Request", message: "Invalid sender address." }, 400),
  },
})
