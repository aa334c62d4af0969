import { signOut } from "../../auth"
import type { Actions } from "./$types"

// The `SignOut` component posts here.
export const actions: Actions = { default: signOut }
