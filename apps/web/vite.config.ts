import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const apiTarget = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Read the contract package from its TypeScript source, no build step needed.
    conditions: ['source', ...defaultClientConditions],
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/media': apiTarget,
    },
  },
  build: {
    target: 'es2022',
  },
});
