// SvelteKit generates these declarations inside an app (.svelte-kit/ambient.d.ts);
// the package is type-checked on its own, so it declares the one it reads.
declare module "$env/dynamic/private" {
  export const env: Record<string, string | undefined>
}
