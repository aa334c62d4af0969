/**
 * E-mail ("magic link") sign-in, sent as a Loops transactional e-mail.
 *
 * Create a transactional e-mail in Loops with a data variable named `url` (the
 * sign-in link; the template is Loops', not Tessera's), publish it, and pass its
 * id as `transactionalId`. `apiKey` defaults to `AUTH_LOOPS_KEY`. Needs a
 * database adapter, for the single-use tokens.
 *
 * @example
 * ```ts
 * import Loops from "@tessera/core/providers/loops"
 * Loops({ apiKey: process.env.AUTH_LOOPS_KEY, transactionalId: "clxxxxxxxxxxxxxxx" })
 * ```
 *
 * The request: `POST https://app.loops.so/api/v1/transactional` with
 * `Authorization: Bearer <key>` and JSON `{ transactionalId, email,
 * dataVariables: { url } }`. Loops answers `{ success: true }`; a non-2xx answer,
 * or `success: false`, fails the sign-in with `error=EmailSignin`.
 * @see https://loops.so/docs/api-reference/send-transactional-email
 * @see https://loops.so/docs/transactional/guide
 * @module
 */
import {
  mailApiKey,
  mailApiProvider,
  withRequiredOptions,
  sendToMailApi,
  type EmailConfig,
  type EmailSendVerificationRequestParams,
} from "./email.js"

const SERVICE = "Loops"

export interface LoopsConfig extends EmailConfig {
  /** The id of the published transactional e-mail; it must use a `url` data variable. */
  transactionalId?: string
}

export type LoopsUserConfig = Omit<Partial<LoopsConfig>, "options" | "type">

/** The default `sendVerificationRequest` of `Loops`. */
export async function sendWithLoops(params: EmailSendVerificationRequestParams): Promise<void> {
  const { identifier, url } = params
  const provider = params.provider as LoopsConfig
  const apiKey = mailApiKey(provider, SERVICE)
  if (!provider.transactionalId)
    throw new TypeError(`${SERVICE}: no transactionalId (the id of your transactional e-mail)`)
  const response = await sendToMailApi(
    params,
    SERVICE,
    "https://app.loops.so/api/v1/transactional",
    {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        transactionalId: provider.transactionalId,
        email: identifier,
        dataVariables: { url },
      }),
    },
  )
  const body: unknown = await response.json().catch(() => undefined)
  if (body && typeof body === "object" && (body as { success?: unknown }).success === false)
    throw new Error(
      `${SERVICE} did not accept the sign-in e-mail: ${response.status} success: false`,
    )
}

// Without its API key and template nothing can be sent: refused at start when missing.
withRequiredOptions(sendWithLoops, ["apiKey", "transactionalId"])

/**
 * E-mail ("magic link") sign-in, sent as a Loops transactional e-mail.
 *
 * @param config `apiKey` (default `AUTH_LOOPS_KEY`), `transactionalId`, and any e-mail provider option to override.
 * @see [Auth.js: Loops](https://authjs.dev/reference/core/providers/loops)
 * @see https://loops.so/docs/api-reference/send-transactional-email
 * @see https://loops.so/docs/transactional/guide
 */
export default function Loops(config: LoopsUserConfig = {}): LoopsConfig {
  return mailApiProvider<LoopsConfig>(
    { id: "loops", name: "Loops", sendVerificationRequest: sendWithLoops },
    config,
  )
}
