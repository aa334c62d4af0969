// Rendered once, at build time, and served as a file: nobody is signed in here.
export const prerender = true
