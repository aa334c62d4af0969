/**
 * Login CSRF with one-time e-mail codes. A code is typed into a form that
 * carries the CSRF token, so an attacker cannot post their own code from
 * their site and sign the victim into the attacker's account. With
 * `method: "code"` no mail holds a link, so a GET carrying a code must not be
 * a way around that form: only `method: "both"` mails a link with the code.
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import Email from "@tessera/core/providers/email"
import { MemoryAdapter } from "@tessera/testing"
import { csrfToken, get, Jar, makeConfig, post, setsSession } from "../harness/index.js"

function codeApp(method: "code" | "both") {
  const codes = new Map<string, string>()
  const { config } = makeConfig({
    adapter: MemoryAdapter(),
    providers: [
      Email({
        method,
        sendVerificationRequest: (params: EmailSendVerificationRequestParams) =>
          void codes.set(params.identifier, params.code!),
      }),
    ],
  })
  return { config, codes }
}

/** The attacker asks for a code for their own address, as anyone can. */
async function attackersCode(config: AuthConfig, codes: Map<string, string>, address: string) {
  const { token, jar } = await csrfToken(config)
  const response = await Auth(
    post("/auth/signin/email", { email: address, csrfToken: token }, { jar }),
    config,
  )
  expect(response.status).toBe(302)
  return codes.get(address)!
}

describe('method "code": no link, so no way in without the code form', () => {
  test("the attacker's own code in a GET (a link on their site) signs the victim in as nobody", async () => {
    const { config, codes } = codeApp("code")
    const address = "attacker@evil.test"
    const code = await attackersCode(config, codes, address)
    // The victim's browser follows a link (or an <img>, a top-level navigation) the attacker made.
    const victim = new Jar()
    const response = await Auth(
      get(`/auth/callback/email?${new URLSearchParams({ email: address, code })}`, {
        jar: victim,
      }),
      config,
    )
    expect(setsSession(response)).toBe(false)
    expect(response.headers.get("location")).toContain("error=")
    // The GET consumed nothing: the code still works in its owner's form.
    const { token, jar } = await csrfToken(config)
    const own = await Auth(
      post("/auth/callback/email", { email: address, code, csrfToken: token }, { jar }),
      config,
    )
    expect(setsSession(own)).toBe(true)
  })

  test('with method "both" the mailed link carries the code and works, as a link does', async () => {
    const { config, codes } = codeApp("both")
    const address = "user@example.test"
    const code = await attackersCode(config, codes, address)
    const response = await Auth(
      get(`/auth/callback/email?${new URLSearchParams({ email: address, code })}`),
      config,
    )
    expect(setsSession(response)).toBe(true)
  })
})
