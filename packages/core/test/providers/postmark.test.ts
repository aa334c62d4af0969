/** Postmark against a stand-in of api.postmarkapp.com. */
import { expect } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Postmark from "@tessera/core/providers/postmark"

runProviderTests({
  provider: Postmark,
  api: {
    url: "https://api.postmarkapp.com/email",
    check({ request, json: body, apiKey, from, to, link }) {
      expect(request.headers.get("x-postmark-server-token")).toBe(apiKey)
      expect(request.headers.get("accept")).toBe("application/json")
      expect(request.headers.has("authorization")).toBe(false)
      expect(body).toEqual({
        From: from,
        To: to,
        Subject: "Sign in to localhost:3000",
        TextBody: expect.stringContaining(link.href),
        HtmlBody: expect.stringContaining("Sign in"),
        MessageStream: "outbound",
      })
    },
    success: () =>
      json({
        To: "ada@example.test",
        SubmittedAt: "2024-01-01T00:00:00.0000000-05:00",
        MessageID: "0a129aee-e1cd-480d-b08d-4f48548ff48d",
        ErrorCode: 0,
        Message: "OK",
      }),
    failure: () =>
      json(
        { ErrorCode: 400, Message: "The 'From' address you supplied is not a Sender Signature." },
        422,
      ),
  },
})
