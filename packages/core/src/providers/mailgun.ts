/**
 * E-mail ("magic link") sign-in, sent through Mailgun's Messages API.
 *
 * Use a Mailgun API key (a sending key is enough) and a domain verified at
 * Mailgun. `apiKey` defaults to `AUTH_MAILGUN_KEY`. The sending domain is the
 * domain of `from` (default `no-reply@<your host>`), or `domain` when you send
 * from another one; `region: "EU"` for domains in Mailgun's EU region. Needs a
 * database adapter, for the single-use tokens.
 *
 * @example
 * ```ts
 * import Mailgun from "@tessera/core/providers/mailgun"
 * Mailgun({ apiKey: process.env.AUTH_MAILGUN_KEY, from: "Acme <no-reply@mg.acme.example>" })
 * Mailgun({ apiKey, from: "no-reply@acme.example", domain: "mg.acme.example", region: "EU" })
 * ```
 *
 * The request: `POST https://api.mailgun.net/v3/<domain>/messages` (EU:
 * `api.eu.mailgun.net`) with HTTP Basic credentials `api:<key>` and a
 * `multipart/form-data` body of `from`, `to`, `subject`, `text`, `html`. Any
 * answer but a 2xx fails the sign-in with `error=EmailSignin`.
 * @see https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages
 * @see https://documentation.mailgun.com/docs/mailgun/api-reference/#base-url
 * @module
 */
import {
  mailApiProvider,
  withRequiredOptions,
  mailParts,
  sendToMailApi,
  type EmailConfig,
  type EmailSendVerificationRequestParams,
} from "./email.js"

const SERVICE = "Mailgun"
const HOSTS = { US: "api.mailgun.net", EU: "api.eu.mailgun.net" } as const

export interface MailgunConfig extends EmailConfig {
  /** Mailgun's region of your domain. Default `"US"`. */
  region?: "US" | "EU"
  /** The sending domain, when it is not the domain of `from`. */
  domain?: string
}

export type MailgunUserConfig = Omit<Partial<MailgunConfig>, "options" | "type">

/** The default `sendVerificationRequest` of `Mailgun`. */
export async function sendWithMailgun(params: EmailSendVerificationRequestParams): Promise<void> {
  const provider = params.provider as MailgunConfig
  const { apiKey, from, to, message } = mailParts(params, SERVICE)
  const domain = provider.domain ?? /@([^@<>\s]+)>?\s*$/.exec(from)?.[1]
  if (!domain) throw new TypeError(`${SERVICE}: no sending domain (set domain, or a from address)`)
  const host = HOSTS[provider.region ?? "US"]
  if (!host) throw new TypeError(`${SERVICE}: region must be "US" or "EU"`)
  const form = new FormData()
  for (const [name, value] of Object.entries({ from, to, ...message })) form.append(name, value)
  await sendToMailApi(
    params,
    SERVICE,
    `https://${host}/v3/${encodeURIComponent(domain)}/messages`,
    {
      method: "POST",
      headers: { authorization: `Basic ${btoa(`api:${apiKey}`)}` },
      body: form,
    },
  )
}

// Without its API key nothing can be sent: a missing one is refused at start.
withRequiredOptions(sendWithMailgun)

/**
 * E-mail ("magic link") sign-in, sent through Mailgun's Messages API.
 *
 * @param config `apiKey` (default `AUTH_MAILGUN_KEY`), `from`, `domain`, `region`, and any e-mail provider option to override.
 * @see [Auth.js: Mailgun](https://authjs.dev/reference/core/providers/mailgun)
 * @see https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages
 * @see https://documentation.mailgun.com/docs/mailgun/api-reference/#base-url
 */
export default function Mailgun(config: MailgunUserConfig = {}): MailgunConfig {
  return mailApiProvider<MailgunConfig>(
    { id: "mailgun", name: "Mailgun", region: "US", sendVerificationRequest: sendWithMailgun },
    config,
  )
}
