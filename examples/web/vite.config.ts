import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The app calls /graphql on its own origin; the dev server and `vite preview` proxy it to the gateway
// (GATEWAY_URL, default the gateway's `npm start` address), so development needs no CORS setting.
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:4000';

export default defineConfig({
  plugins: [react()],
  server: { port: 5173, strictPort: false, proxy: { '/graphql': { target: gateway, changeOrigin: false } } },
  preview: { port: 4173, proxy: { '/graphql': { target: gateway, changeOrigin: false } } },
});
