/**
 * Real Chromium for the browser tests (the built-in pages, passkeys): the
 * system browser with the flags every test launches it with. Serve the app
 * with `serveAuth(config, { localhost: true, home: true })` (./http-server.ts).
 * Kept apart from the rest of the harness so playwright-core loads only here.
 */
import { existsSync } from "node:fs"
import { chromium, type Browser } from "playwright-core"

export const CHROMIUM = "/usr/bin/chromium"

/** False where the machine has no Chromium: the browser tests are skipped, with a warning. */
export const hasChromium = existsSync(CHROMIUM)

/** Chromium, headless, quiet (no network of its own), `localhost` resolved to 127.0.0.1. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--host-resolver-rules=MAP localhost 127.0.0.1",
    ],
  })
}
