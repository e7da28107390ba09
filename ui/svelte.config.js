// Shared by vite-plugin-svelte and svelte-check. TypeScript in components needs no preprocessor in Svelte 5.
/** @type {import("@sveltejs/vite-plugin-svelte").SvelteConfig} */
export default {
  compilerOptions: {
    runes: true,
  },
};
