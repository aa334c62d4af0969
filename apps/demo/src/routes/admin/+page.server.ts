import { listUsers } from "$lib/server/directory"
import type { PageServerLoad } from "./$types"

// No session check here: `src/hooks.server.ts` guards everything under /admin.
export const load: PageServerLoad = async () => {
  const users = await listUsers()
  return {
    totals: {
      users: users.length,
      passkeys: users.reduce((sum, user) => sum + user.passkeys, 0),
      sessions: users.reduce((sum, user) => sum + user.sessions, 0),
    },
  }
}
