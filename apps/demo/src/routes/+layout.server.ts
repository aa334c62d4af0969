import { demoSettings } from "$lib/server/settings"
import type { LayoutServerLoad } from "./$types"

/**
 * The session for every page (`page.data.session`). Pages that must be
 * protected check it again in their own load: a layout load is not guaranteed
 * to run for every navigation to a child page.
 */
export const load: LayoutServerLoad = async ({ locals }) => {
  return {
    session: await locals.auth(),
    devDefaults: demoSettings().devDefaults,
  }
}
