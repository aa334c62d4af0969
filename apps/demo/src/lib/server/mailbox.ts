/**
 * The development mailbox: the e-mail method "sends" its sign-in links here,
 * and `/dev/mailbox` shows them, so e-mail sign-in works with no mail server.
 * @module
 */
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers/email"
import { verificationMessage } from "@tessera/core/providers/nodemailer"
import { database } from "./db"

export interface Mail {
  id: number
  recipient: string
  subject: string
  text: string
  url: string
  sentAt: Date
}

/** Keeps the mailbox small: only the latest messages matter in development. */
const KEEP = 50

/** A `sendVerificationRequest` that delivers to the development mailbox. */
export async function deliverToMailbox({
  identifier,
  url,
  theme,
}: EmailSendVerificationRequestParams): Promise<void> {
  const { subject, text } = verificationMessage({ url, host: new URL(url).host, theme })
  const db = database()
  await db
    .insertInto("demo_mailbox")
    .values({ recipient: identifier, subject, text, url, sent_at: Date.now() })
    .execute()
  const cutoff = await db
    .selectFrom("demo_mailbox")
    .select("id")
    .orderBy("id", "desc")
    .offset(KEEP)
    .limit(1)
    .executeTakeFirst()
  if (cutoff) await db.deleteFrom("demo_mailbox").where("id", "<=", cutoff.id).execute()
}

/** The newest messages first. */
export async function listMail(): Promise<Mail[]> {
  const rows = await database()
    .selectFrom("demo_mailbox")
    .selectAll()
    .orderBy("id", "desc")
    .limit(KEEP)
    .execute()
  return rows.map(({ sent_at, ...mail }) => ({ ...mail, sentAt: new Date(sent_at) }))
}
