/** Passkey: the conformance suite (registration, sign-in, origin and rp id, replay, CSRF, the page) with a software authenticator. */
import { runProviderTests } from "@tessera/testing"
import Passkey from "@tessera/core/providers/passkey"

runProviderTests({ provider: Passkey, webauthn: {} })
