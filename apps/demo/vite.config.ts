import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig } from "vite"

export default defineConfig({
  plugins: [sveltekit()],
  ssr: {
    // Workspace packages are symlinks, which Vite would bundle like app code,
    // native SQLite driver included. Load them from node_modules at run time,
    // as an app installing them from the registry would. (@tessera/sveltekit
    // ships Svelte components, so it is compiled with the app.)
    external: ["@tessera/core", "@tessera/sql", "@tessera/testing"],
  },
  build: {
    rolldownOptions: {
      // Rolldown reports when plugin callbacks run long; SvelteKit's writeBundle (prerendering)
      // always does, and the report reads like a fault where there is none.
      checks: { bundlerTimings: false },
    },
  },
})
