import { fail } from "@sveltejs/kit"
import {
  AccessDenied,
  CredentialsSignin,
  EmailSignInError,
  OAuthAccountNotLinked,
  RateLimited,
  SignInError,
} from "@tessera/sveltekit"
import { DEMO_ACCOUNTS } from "$lib/server/accounts"
import { signInFailure } from "$lib/signin-failures"
import { demoSettings } from "$lib/server/settings"
import { signIn } from "../../auth"
import type { Actions, PageServerLoad } from "./$types"

export const load: PageServerLoad = async ({ url }) => {
  const settings = demoSettings()
  // A sign-in that failed away from this page (at an identity provider, or following a link)
  // comes back here with `?error=` (see hooks.server.ts).
  const error = url.searchParams.get("error")
  return {
    failure: error ? signInFailure(error) : undefined,
    // Only a path on this site: anything else would be refused by Tessera anyway.
    redirectTo: safePath(url.searchParams.get("redirectTo") ?? url.searchParams.get("callbackUrl")),
    methods: {
      credentials: settings.demoAccounts,
      email: settings.devDefaults || !!settings.emailServer,
      localIdp: !!settings.localIdp,
      vk: !!settings.vk,
    },
    demoAccounts: settings.demoAccounts
      ? DEMO_ACCOUNTS.map(({ email, password }) => ({ email, password }))
      : [],
  }
}

function safePath(value: FormDataEntryValue | null): string {
  return typeof value === "string" &&
    value.startsWith("/") &&
    !value.startsWith("//") &&
    !value.startsWith("/\\")
    ? value
    : "/"
}

/** What the page says for a failed sign-in: never which of e-mail and password was wrong. */
function messageFor(error: SignInError | AccessDenied): string {
  if (error instanceof RateLimited) return "Too many attempts. Wait a few minutes, then try again."
  if (error instanceof CredentialsSignin)
    return "That e-mail address and password do not match a demo account."
  if (error instanceof EmailSignInError)
    return "The sign-in link could not be sent. Check the e-mail address."
  if (error instanceof OAuthAccountNotLinked) return "That account is linked to another user."
  if (error instanceof AccessDenied) return "You may not sign in with that account."
  return "Signing in did not work. Please try again."
}

export const actions: Actions = {
  // The `SignIn` component posts here. Tessera's `signIn` action redirects on
  // success and throws on failure, so the form stays on screen with a message.
  default: async (event) => {
    const form = await event.request.clone().formData()
    try {
      return await signIn(event)
    } catch (error) {
      // Anything else is SvelteKit's redirect, or a failure that is not the user's.
      if (!(error instanceof SignInError || error instanceof AccessDenied)) throw error
      return fail(400, {
        providerId: String(form.get("providerId") ?? ""),
        email: String(form.get("email") ?? ""),
        // The form posted to /signin without the page's query: keep where to go next.
        redirectTo: safePath(form.get("redirectTo")),
        message: messageFor(error),
      })
    }
  },
}
