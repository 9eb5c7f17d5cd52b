import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

// The console app: React with Tailwind, built into console/dist, which the console server serves
// (it runs this build itself when dist/ is missing or stale).
export default defineConfig({
  root: fileURLToPath(new URL('./src/app', import.meta.url)),
  base: '/',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // Everything the console needs is built in; no source maps that would show server paths.
    sourcemap: false,
  },
  logLevel: 'warn',
})
