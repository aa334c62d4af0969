import { error, fail, redirect } from "@sveltejs/kit"
import { authAdapter } from "$lib/server/db"
import { profileOf } from "$lib/server/directory"
import { endOtherSessions, endSession, sessionsOf } from "$lib/server/sessions"
import { demoSettings } from "$lib/server/settings"
import type { Actions, PageServerLoad } from "./$types"

/** Protected by its own load: no session, no page (303 to the sign-in page). */
export const load: PageServerLoad = async (event) => {
  const { locals, url } = event
  const session = await locals.auth()
  const userId = session?.user?.id
  if (!userId) redirect(303, `/signin?${new URLSearchParams({ redirectTo: url.pathname })}`)
  const profile = await profileOf(userId)
  if (!profile) error(404, "This account no longer exists")
  const twoFactor = await authAdapter().getTwoFactor(userId)
  return {
    profile,
    localIdp: !!demoSettings().localIdp,
    twoFactorEnabled: !!twoFactor?.enabledAt,
    sessions: await sessionsOf(event),
  }
}

export const actions: Actions = {
  /** Ends one of the user's other sessions (the SessionsList component). */
  endSession: async (event) => {
    const form = await event.request.formData()
    const id = form.get("id")
    if (typeof id !== "string" || !(await endSession(event, id)))
      return fail(404, { sessionError: "That session is not one of yours, or it has ended." })
    return { ended: 1 }
  },
  /** Signs out every other device (the SessionsList component). */
  endOtherSessions: async (event) => ({ ended: await endOtherSessions(event) }),
}
