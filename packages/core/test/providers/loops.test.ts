/** Loops against a stand-in of app.loops.so: the template is Loops', the link a data variable. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Loops from "@tessera/core/providers/loops"

let answer: () => Response = () => json({ success: true })

const suite = runProviderTests({
  provider: Loops,
  options: { transactionalId: "clfq6dinn000yl70fgwwyp82l" },
  api: {
    url: "https://app.loops.so/api/v1/transactional",
    check({ request, json: body, apiKey, to, link }) {
      expect(request.headers.get("authorization")).toBe(`Bearer ${apiKey}`)
      expect(body).toEqual({
        transactionalId: "clfq6dinn000yl70fgwwyp82l",
        email: to,
        dataVariables: { url: link.href },
      })
    },
    success: () => answer(),
    failure: () =>
      json(
        { success: false, path: "transactionalId", message: "Transactional email not found" },
        404,
      ),
  },
})

/** `sendVerificationRequest` of the provider as `Auth()` resolves it. */
function send(extra: Record<string, unknown> = {}) {
  const { options, ...defaults } = suite.provider() as any
  const provider = { ...defaults, ...options, ...extra }
  return provider.sendVerificationRequest({
    identifier: "ada@example.test",
    url: "http://localhost:3000/auth/callback/loops?token=t",
    token: "t",
    expires: new Date(),
    provider,
    theme: {},
    request: new Request("http://localhost:3000"),
  })
}

test("no transactionalId: nothing is sent", async () => {
  const before = suite.standIn.requests.length
  await expect(send({ transactionalId: undefined })).rejects.toThrow(/transactionalId/)
  expect(suite.standIn.requests.length).toBe(before)
})

test("a 200 with success: false is a failure", async () => {
  answer = () => json({ success: false, message: "Invalid data variables" })
  try {
    await expect(send()).rejects.toThrow(/success: false/)
  } finally {
    answer = () => json({ success: true })
  }
})
