/**
 * Helpers for the e-mail sign-in tests: request a link through `Auth()`, read
 * it from the mail the local SMTP sink received, follow it.
 */
import { expect } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import type { Adapter } from "@tessera/core/adapters"
import type { ReceivedMail } from "@tessera/testing"
import { csrfToken, get, Jar, post } from "../../harness/index.js"

let counter = 0
/** A fresh address per test, so mails of different tests never mix in the sink. */
export function uniqueAddress(name = "ada"): string {
  return `${name}-${Date.now().toString(36)}-${++counter}@example.com`
}

/** POST signin/<provider> with a valid CSRF token (and the callback URL, if given). */
export async function requestLink(
  config: AuthConfig,
  email: unknown,
  options: { callbackUrl?: string; jar?: Jar; providerId?: string; json?: boolean } = {},
): Promise<{ response: Response; jar: Jar }> {
  const { token, jar } = await csrfToken(config, options.jar)
  const body: Record<string, unknown> = { email, csrfToken: token }
  if (options.callbackUrl) body.callbackUrl = options.callbackUrl
  const response = await Auth(
    post(`/auth/signin/${options.providerId ?? "nodemailer"}`, body, { jar, json: options.json }),
    config,
  )
  jar.update(response)
  return { response, jar }
}

/**
 * The sign-in link of a received mail: the one URL in the text part, which the
 * HTML part must carry too (attribute-escaped).
 */
export function linkIn(mail: ReceivedMail): URL {
  const links = mail.text.match(/https?:\/\/\S+/g) ?? []
  expect(links).toHaveLength(1)
  const link = links[0]!
  expect(mail.html).toContain(`href="${link.replaceAll("&", "&amp;")}"`)
  return new URL(link)
}

/** Follows a link as a browser would (GET, with the jar's cookies if any). */
export async function follow(
  config: AuthConfig,
  link: URL | string,
  jar = new Jar(),
): Promise<{ response: Response; jar: Jar }> {
  const response = await Auth(get(String(link), { jar }), config)
  jar.update(response)
  return { response, jar }
}

/** The adapter with every call counted by method name: for "no query was made" checks. */
export function countingAdapter<A extends Adapter>(
  adapter: A,
): { adapter: A; calls: Map<string, number>; total(): number } {
  const calls = new Map<string, number>()
  const counted = new Proxy(adapter, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver)
      if (typeof value !== "function" || typeof key !== "string") return value
      return (...args: unknown[]) => {
        calls.set(key, (calls.get(key) ?? 0) + 1)
        return value.apply(target, args)
      }
    },
  })
  return { adapter: counted, calls, total: () => [...calls.values()].reduce((a, b) => a + b, 0) }
}

/** Every string the recording logger received, causes included, for "nothing secret was logged" checks. */
export function loggedText(errors: Error[], debug: string[] = []): string {
  const parts: string[] = [...debug]
  for (const error of errors) {
    parts.push(error.message, String(error.stack))
    const cause = (error as { cause?: unknown }).cause
    parts.push(
      JSON.stringify(cause, (_k, v) => (v instanceof Error ? `${v.message} ${v.stack}` : v)) ?? "",
    )
  }
  return parts.join("\n")
}
