import { listUsers } from "$lib/server/directory"
import type { PageServerLoad } from "./$types"

/** `a•••@example.test`: enough to tell users apart, not enough to harvest addresses. */
function maskEmail(email: string | null): string | null {
  if (!email) return email
  const at = email.indexOf("@")
  return at > 0 ? `${email[0]}•••${email.slice(at)}` : "•••"
}

// Guarded by the /admin path-prefix hook, which only asks for *a* session: anyone
// can sign up here, so other users' addresses are masked; you see your own.
export const load: PageServerLoad = async ({ locals }) => {
  const me = (await locals.auth())?.user?.email
  const users = await listUsers()
  return {
    users: users.map((user) =>
      user.email === me ? user : { ...user, email: maskEmail(user.email) },
    ),
  }
}
