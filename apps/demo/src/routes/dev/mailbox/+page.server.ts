import { error } from "@sveltejs/kit"
import { listMail } from "$lib/server/mailbox"
import { demoSettings } from "$lib/server/settings"
import type { PageServerLoad } from "./$types"

/**
 * Development only: anyone who can open this page can use every link in it.
 * With a real `AUTH_SECRET` the page does not exist.
 */
export const load: PageServerLoad = async () => {
  if (!demoSettings().devDefaults) error(404, "Not found")
  return { mails: await listMail() }
}
