/**
 * `SignIn` and `SignOut`: forms posting to the `signIn`/`signOut` form actions.
 * @module
 */
export { default as SignIn } from "./SignIn.svelte"
export { default as SignOut } from "./SignOut.svelte"
export type { AuthorizationParamsInput, FormOptions } from "./form.js"
