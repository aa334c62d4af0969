/**
 * `@tessera/sveltekit/webauthn`: `signIn` for passkeys, where Auth.js apps
 * import it from (`@auth/sveltekit/webauthn`). It is the same `signIn` as
 * `@tessera/sveltekit/client`, which runs the WebAuthn ceremony for WebAuthn
 * providers and posts the form for the others.
 *
 * @example
 * ```svelte
 * <script>
 *   import { signIn } from "@tessera/sveltekit/webauthn"
 * </script>
 * <button onclick={() => signIn("passkey")}>Sign in with a passkey</button>
 * <button onclick={() => signIn("passkey", { action: "register" })}>Add a passkey</button>
 * ```
 * @module
 */
export {
  signIn,
  type SignInAuthorizationParams,
  type SignInOptions,
  type SignInParams,
  type SignInResponse,
  type SignInResult,
} from "./client.js"
