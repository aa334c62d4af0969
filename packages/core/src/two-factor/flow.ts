/**
 * The second step of a sign-in, as a pseudo-provider: `POST
 * callback/two-factor` with `code` (a TOTP code or a recovery code), or `data`
 * (a passkey's assertion, see `complete.ts`), and the CSRF token finishes the
 * sign-in the pending cookie holds. It goes through
 * the route table like every callback (CSRF, and the `twoFactor` rate limit
 * keyed by the pending user). Failures go back to the two-factor page; an
 * expired or missing pending sign-in to the sign-in page.
 * @module
 */
import type { RequestContext } from "../context.js"
import { TwoFactorExpired } from "../errors.js"
import { lazy } from "../flows/lazy.js"
import type { ProviderFlow } from "../flows/types.js"
import { html } from "../pages/html.js"
import { TWO_FACTOR_ID } from "./id.js"
import { twoFactorPageUrl } from "./page-url.js"

/**
 * The step's work (`complete.ts`: the code check, the pending sign-in, the session), loaded
 * with the first code posted: a configuration is resolved with this light object only, so an
 * app with second factors does not load them, nor the sign-in steps and pages they use, at a
 * cold start.
 */
const steps = lazy(() => import("./complete.js"))

export const twoFactorFlow: ProviderFlow = {
  provider: { id: TWO_FACTOR_ID, type: "two-factor", name: "Two-factor authentication" },
  type: "two-factor",
  // Nothing to start: the step follows a first factor.
  signIn: async (ctx) => ({ redirect: twoFactorPageUrl(ctx) }),
  callback: {
    methods: ["POST"],
    csrf: true,
    handle: async (ctx: RequestContext) => (await steps()).completeTwoFactor(ctx),
  },
  // Never listed on the sign-in page (it is not in `providers`).
  section: () => html``,
  failurePage: (ctx, error, value) =>
    error instanceof TwoFactorExpired ? undefined : twoFactorPageUrl(ctx, value),
}
