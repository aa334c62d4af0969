/**
 * The steps of an e-mail sign-in as the outside flow tests drive them, shared by
 * postgres-flows.test.ts and sqlite-flows.test.ts: ask for a mail, follow its link, read
 * the `error` of an answer, and find whom a browser's session cookie belongs to in the
 * `sessions` table.
 */
import { createHash } from "node:crypto"
import { expect } from "vitest"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import type { SqlAdapterInstance } from "@tessera/sql"
import { type Browser, ORIGIN, sessionCookieName } from "../../../core/test/harness/index.js"

/** The `error` of the redirect's target; null when it has none. */
export const errorOf = (response: Response) => {
  const location = response.headers.get("location")
  return location ? new URL(location, ORIGIN).searchParams.get("error") : "no redirect"
}

/**
 * Asks for a sign-in mail for `email` from `browser` (a link, or a code with a `method:
 * "code"` provider's id); the mail, from `mails`, where the app's sender records them.
 */
export async function askForMail(
  mails: EmailSendVerificationRequestParams[],
  browser: Browser,
  email: string,
  provider = "email",
): Promise<EmailSendVerificationRequestParams> {
  const sent = mails.length
  const response = await browser.request(`/auth/signin/${provider}`, {
    body: { email, csrfToken: await browser.csrfToken() },
  })
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).toMatch(
    new RegExp(`^${ORIGIN}/auth/verify-request\\?provider=${provider}&type=email(&|$)`),
  )
  expect(mails).toHaveLength(sent + 1)
  return mails.at(-1)!
}

/** The path and query of the mail's link, which is on the app's origin. */
export const linkOf = (mail: EmailSendVerificationRequestParams) => {
  const url = new URL(mail.url)
  expect(url.origin).toBe(ORIGIN)
  return url.pathname + url.search
}

/** The id of the user `browser` is signed in as, from its session row (the cookie's SHA-256). */
export async function userIdOf(
  adapter: SqlAdapterInstance,
  browser: Browser,
): Promise<string | undefined> {
  const cookie = browser.jar.get(sessionCookieName())
  if (!cookie) return undefined
  const row = await adapter.db
    .selectFrom("sessions")
    .select("user_id")
    .where("session_token", "=", createHash("sha256").update(cookie).digest("hex"))
    .executeTakeFirst()
  return row?.user_id
}
