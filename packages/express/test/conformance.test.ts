/**
 * The integration conformance suite against Express: Express 5 without body
 * parsers (the integration reads the stream), Express 5 with express.json()
 * and express.urlencoded() in front (it encodes req.body back), and Express 4
 * mounted the @auth/express way, at "/auth/*".
 */
import { runIntegrationTests } from "@tessera/testing/suites"
import { express4, startApp } from "./harness.js"

runIntegrationTests({
  name: "Express 5, no body parser",
  start: ({ config }) => startApp(config),
})

runIntegrationTests({
  name: "Express 5, express.json() and express.urlencoded()",
  start: ({ config }) => startApp(config, { bodyParsers: true }),
})

runIntegrationTests({
  name: "Express 5, mounted at /auth/*splat",
  start: ({ config }) => startApp(config, { mount: "/auth/*splat" }),
})

runIntegrationTests({
  name: "Express 4, mounted at /auth/*, with body parsers",
  start: ({ config }) =>
    startApp(config, { express: express4, mount: "/auth/*", bodyParsers: true }),
})
