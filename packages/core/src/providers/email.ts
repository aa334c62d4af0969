/**
 * Configuration type of e-mail ("magic link") providers (`type: "email"`).
 * The flow lives in `src/email/`.
 * @module
 */
import type { Awaitable, Theme } from "../types.js"
import type { CommonProviderOptions } from "./index.js"

export interface EmailSendVerificationRequestParams {
  /** The normalized e-mail address. */
  identifier: string
  /** The sign-in link. */
  url: string
  expires: Date
  provider: EmailConfig
  /** The raw token in the link. Never log it. */
  token: string
  theme: Theme
  request: Request
}

export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  id: string
  name: string
  /** nodemailer transport: a connection URL or options object. */
  server?: any
  from?: string
  /** Seconds the link stays valid. Default 24 hours. */
  maxAge?: number
  sendVerificationRequest: (params: EmailSendVerificationRequestParams) => Awaitable<void>
  /** Default: 32 random bytes (256 bits) from the CSPRNG, hex. */
  generateVerificationToken?: () => Awaitable<string>
  /** Default: trims, lower-cases and strictly validates the address. Throw to refuse. */
  normalizeIdentifier?: (identifier: string) => string
  /** Used to hash tokens instead of the global secret. */
  secret?: string
  apiKey?: string
  options?: EmailUserConfig
}

export type EmailUserConfig = Omit<Partial<EmailConfig>, "options" | "type">
