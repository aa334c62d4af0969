/** WebAuthn: the conformance suite (registration, sign-in, origin and rp id, replay, CSRF, the page) with a software authenticator. */
import { runProviderTests } from "@tessera/testing"
import WebAuthn from "@tessera/core/providers/webauthn"

runProviderTests({ provider: WebAuthn, webauthn: {} })
