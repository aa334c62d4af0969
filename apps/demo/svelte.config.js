import adapter from "@sveltejs/adapter-node"

/** @type {import('@sveltejs/kit').Config} */
export default {
  kit: {
    // `node server.js` wraps the handler this adapter writes to build/handler.js.
    adapter: adapter({ out: "build" }),
  },
}
