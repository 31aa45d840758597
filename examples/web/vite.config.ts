import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The app calls /graphql on its own origin; the dev server and `vite preview` proxy it to the gateway
// (GATEWAY_URL, default the gateway's `npm start` address), so development needs no CORS setting.
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:4000';
// APP_PORT (set by scripts/start.mjs) or Vite's defaults; strict, so the port printed is the port in use.
const appPort = process.env.APP_PORT ? Number(process.env.APP_PORT) : undefined;

export default defineConfig({
  plugins: [react()],
  server: { port: appPort ?? 5173, strictPort: true, proxy: { '/graphql': { target: gateway, changeOrigin: false } } },
  preview: { port: appPort ?? 4173, strictPort: true, proxy: { '/graphql': { target: gateway, changeOrigin: false } } },
});
