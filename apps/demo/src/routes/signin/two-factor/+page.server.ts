import { fail } from "@sveltejs/kit"
import { InvalidTwoFactorCode, RateLimited, SignInError } from "@tessera/sveltekit"
import { signIn } from "../../../auth"
import type { Actions, PageServerLoad } from "./$types"

/** Tessera sends users with a second factor here after the first one (`pages.twoFactor`). */
export const load: PageServerLoad = async ({ url }) => ({
  // Tessera's own redirects carry an `error` value (an expired step, say).
  error: url.searchParams.get("error"),
})

function messageFor(error: SignInError): string {
  if (error instanceof RateLimited)
    return "Too many wrong codes. Wait a few minutes, then try again."
  if (error instanceof InvalidTwoFactorCode) return "That code did not work. Try again."
  return "This sign-in took too long. Please sign in again."
}

export const actions: Actions = {
  // The SignIn component posts `providerId=two-factor` and `code` here.
  default: async (event) => {
    try {
      return await signIn(event)
    } catch (error) {
      if (!(error instanceof SignInError)) throw error
      return fail(400, { message: messageFor(error) })
    }
  },
}
