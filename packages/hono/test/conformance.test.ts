/**
 * The integration conformance suite against Hono on Node.js (`@hono/node-server`),
 * with the auth routes at `/auth/*` and `/me` behind `verifyAuth()`.
 */
import { runIntegrationTests } from "@tessera/testing/suites"
import { startApp } from "./harness.js"

runIntegrationTests({
  name: "Hono on @hono/node-server",
  start: ({ config }) => startApp(config),
})
