/**
 * Starts Express apps for the tests: a real `http.Server` on 127.0.0.1, port 0,
 * with the app attached once the port (and so the configuration) is known.
 */
import { createServer } from "node:http"
import { createRequire } from "node:module"
import express5, { type Express } from "express"
import type { AuthConfig } from "@tessera/core"
import { listenOnLoopback, type IntegrationApp } from "@tessera/testing"
import { ExpressAuth, getSession } from "../src/index.js"

/** Express 4, installed beside 5 as `express-4`, so every major the package supports is tested. */
export const express4 = createRequire(import.meta.url)("express-4") as typeof express5

export interface AppOptions {
  express?: typeof express5
  /** Where ExpressAuth is mounted. Default `/auth`. */
  mount?: string
  /** Put express.json() and express.urlencoded() in front of everything. */
  bodyParsers?: boolean
  /** Express's `trust proxy` setting. */
  trustProxy?: boolean
  /** Adds middleware or routes before ExpressAuth is mounted. */
  before?: (app: Express) => void
  /** Adds routes after it. */
  after?: (app: Express) => void
}

/** The app: ExpressAuth at the mount, and GET /me answering the session (401 without). */
export function expressApp(config: AuthConfig, options: AppOptions = {}): Express {
  const express = options.express ?? express5
  const app = express()
  if (options.trustProxy) app.set("trust proxy", true)
  if (options.bodyParsers) {
    app.use(express.json())
    app.use(express.urlencoded({ extended: true }))
  }
  options.before?.(app)
  app.use(options.mount ?? "/auth", ExpressAuth(config))
  options.after?.(app)
  app.get("/me", async (req, res, next) => {
    try {
      const session = await getSession(req, config)
      if (!session) res.status(401).json(null)
      else res.json(session)
    } catch (error) {
      next(error)
    }
  })
  return app
}

/** Listens first, then builds the app with the configuration made for the origin. */
export async function startApp(
  makeConfig: (origin: string) => Promise<AuthConfig> | AuthConfig,
  options: AppOptions = {},
): Promise<IntegrationApp & { config: AuthConfig }> {
  const server = createServer()
  const { origin, stop } = await listenOnLoopback(server)
  const config = await makeConfig(origin)
  server.on("request", expressApp(config, options))
  return { origin, config, stop }
}
