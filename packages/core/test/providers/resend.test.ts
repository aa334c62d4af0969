/** Resend against a stand-in of api.resend.com. */
import { expect } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Resend from "@tessera/core/providers/resend"

runProviderTests({
  provider: Resend,
  api: {
    url: "https://api.resend.com/emails",
    check({ request, json: body, apiKey, from, to, link }) {
      expect(request.headers.get("authorization")).toBe(`Bearer ${apiKey}`)
      expect(request.headers.get("content-type")).toBe("application/json")
      expect(body).toEqual({
        from,
        to,
        subject: "Sign in to localhost:3000",
        text: expect.stringContaining(link.href),
        html: expect.stringContaining(link.href.replaceAll("&", "&amp;")),
      })
    },
    success: () => json({ id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" }),
    failure: () =>
      json(
        {
          statusCode: 403,
          name: "validation_error",
          message: "The acme.example domain is not verified.",
        },
        403,
      ),
  },
})
