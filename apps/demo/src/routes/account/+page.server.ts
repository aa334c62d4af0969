import { error, redirect } from "@sveltejs/kit"
import { authAdapter } from "$lib/server/db"
import { profileOf } from "$lib/server/directory"
import { demoSettings } from "$lib/server/settings"
import type { PageServerLoad } from "./$types"

/** Protected by its own load: no session, no page (303 to the sign-in page). */
export const load: PageServerLoad = async ({ locals, url }) => {
  const session = await locals.auth()
  const userId = session?.user?.id
  if (!userId) redirect(303, `/signin?${new URLSearchParams({ redirectTo: url.pathname })}`)
  const profile = await profileOf(userId)
  if (!profile) error(404, "This account no longer exists")
  const twoFactor = await authAdapter().getTwoFactor(userId)
  return { profile, localIdp: !!demoSettings().localIdp, twoFactorEnabled: !!twoFactor?.enabledAt }
}
