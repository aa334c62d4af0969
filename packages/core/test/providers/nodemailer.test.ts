/** Nodemailer: the conformance suite against a mail sink on loopback (SMTP). */
import { runProviderTests } from "@tessera/testing"
import Nodemailer from "@tessera/core/providers/nodemailer"

runProviderTests({ provider: Nodemailer, smtp: {} })
