import adapter from "@sveltejs/adapter-node"

/** @type {import('@sveltejs/kit').Config} */
export default {
  kit: {
    // `node server.js` wraps the handler this adapter writes to build/handler.js.
    adapter: adapter({ out: "build" }),
    prerender: {
      // Prerender only the pages that say `prerender = true`, never pages found
      // by following links: a protected page answering "303 to /signin" at
      // build time would otherwise be written out as a static redirect file,
      // served without ever reaching the hook that protects it.
      crawl: false,
    },
  },
}
