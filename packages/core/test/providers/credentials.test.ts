/** Credentials: the conformance suite (its fields, `authorize`, CSRF, the callback's methods). */
import { runProviderTests } from "@tessera/testing"
import Credentials from "@tessera/core/providers/credentials"

runProviderTests({ provider: Credentials, credentials: {} })
