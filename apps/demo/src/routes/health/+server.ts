import { json } from "@sveltejs/kit"
import type { RequestHandler } from "./$types"

/** Readiness probe. Never asks for the session: the benchmark measures the hook's cost on it. */
export const GET: RequestHandler = () => json({ status: "ok" })
