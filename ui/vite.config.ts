import { defineConfig } from "vitest/config";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defaultClientConditions } from "vite";

// Tauri serves ui/dist as the app's frontend; in development it loads http://localhost:1420.
export default defineConfig(({ mode }) => ({
  plugins: [svelte()],
  // Relative asset paths so dist/ works wherever Tauri serves it from.
  base: "./",
  clearScreen: false,
  server: {
    port: 1420,
    strictPort: true,
    host: "localhost",
  },
  envPrefix: ["VITE_", "TAURI_ENV_"],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Keep everything as files under dist/assets: the app's CSP allows nothing inline.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  // Under vitest, load Svelte's browser build so components can be mounted in happy-dom.
  ...(mode === "test"
    ? {
        resolve: { conditions: [...defaultClientConditions] },
        ssr: { resolve: { conditions: [...defaultClientConditions] } },
      }
    : {}),
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
}));
