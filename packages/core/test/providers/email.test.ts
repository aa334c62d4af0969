/** Email (Auth.js's generic e-mail provider, sending with nodemailer by default): the SMTP suite. */
import { runProviderTests } from "@tessera/testing"
import Email from "@tessera/core/providers/email"

runProviderTests({ provider: Email, smtp: {} })
