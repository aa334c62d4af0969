import { listUsers } from "$lib/server/directory"
import type { PageServerLoad } from "./$types"

// Guarded by the /admin path-prefix hook.
export const load: PageServerLoad = async () => ({ users: await listUsers() })
