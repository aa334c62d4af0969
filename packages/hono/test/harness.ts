/**
 * Starts Hono apps for the tests on `@hono/node-server`, 127.0.0.1, port 0.
 * The configuration is made once the origin is known, and handed out by the
 * `initAuthConfig` callback: the same object on every request.
 */
import type { Server } from "node:http"
import { createAdaptorServer } from "@hono/node-server"
import { Hono } from "hono"
import type { AuthConfig } from "@tessera/core"
import { listenOnLoopback, type IntegrationApp } from "@tessera/testing"
import { authHandler, initAuthConfig, verifyAuth, type AuthHandlerOptions } from "../src/index.js"

export interface AppOptions {
  /** Where authHandler() is registered. Default `/auth/*`. */
  mount?: string
  /** Adds middleware or routes before authHandler() is registered. */
  before?: (app: Hono) => void
  /** Adds routes after it. */
  after?: (app: Hono) => void
  /** authHandler()'s options. */
  handler?: AuthHandlerOptions
}

/** The app: authHandler() at the mount, and GET /me behind verifyAuth() answering the session. */
export function honoApp(config: () => AuthConfig, options: AppOptions = {}): Hono {
  const app = new Hono()
  app.use("*", initAuthConfig(config))
  options.before?.(app)
  app.use(options.mount ?? "/auth/*", authHandler(options.handler))
  app.use("/me", verifyAuth())
  app.get("/me", (c) => c.json(c.get("authUser").session))
  options.after?.(app)
  return app
}

/** Listens first, then makes the configuration for the origin. */
export async function startApp(
  makeConfig: (origin: string) => Promise<AuthConfig> | AuthConfig,
  options: AppOptions = {},
): Promise<IntegrationApp & { config: AuthConfig }> {
  let config: AuthConfig | undefined
  const app = honoApp(() => config!, options)
  const { origin, stop } = await listenOnLoopback(
    createAdaptorServer({ fetch: app.fetch }) as Server,
  )
  config = await makeConfig(origin)
  return { origin, config, stop }
}
