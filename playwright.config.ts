import { defineConfig } from '@playwright/test';

const port = process.env.E2E_PORT || '3100';
const baseURL = process.env.E2E_BASE_URL || `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  // See vitest.config.ts: one more try in CI only.
  retries: Number(process.env.TEST_RETRIES ?? 0),
  // Real AI runs on a shared 2-core machine: room for a slow run.
  timeout: 180_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL,
    // The app stops its animations for people who ask for less motion (styles.css). Chromium
    // without a GPU redraws a blurred backdrop on every frame of a spinner above it, which took
    // about a core while a tool ran; no test asserts an animation.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    // A trace records every action's screenshots and DOM: recording one for every test (to keep
    // it on failure) took a quarter of the browser tests' time here. A failure is tried once more
    // in CI (TEST_RETRIES) and that retry records it; locally, pass --trace on.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  // E2E_EXTERNAL_SERVER=1 runs against a server you started yourself at E2E_BASE_URL.
  webServer: process.env.E2E_EXTERNAL_SERVER
    ? undefined
    : {
        command: 'node scripts/e2e-server.mjs',
        url: `http://127.0.0.1:${port}/api/health`,
        reuseExistingServer: false,
        timeout: 120_000,
        stdout: 'pipe',
        stderr: 'pipe',
      },
});
