/**
 * The second-factor step's id: its callback route's provider segment
 * (`callback/two-factor`) and the provider of a sign-in waiting for its code
 * (`session/records.ts`). A module of its own so that naming it loads nothing
 * of second factors (cold start).
 * @module
 */
export const TWO_FACTOR_ID = "two-factor"
