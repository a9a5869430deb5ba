import { defineConfig, devices } from "@playwright/test";
import { ADMIN_STATE, BASE_URL, DATA_DIR, DATABASE_URL, LAN_HOST, LAN_URL, PORT } from "./e2e/fixtures";

/**
 * End-to-end tests against a production build (`npm run build` first; NEXT_DIST_DIR, inherited by the
 * web server, picks another build folder). Every run starts the server on a fresh database in
 * e2e/.data, so the first-run setup in e2e/auth.setup.ts always sees an empty install. One worker: all
 * tests share that one database and run in file order. E2E_PORT (default 3211) moves the server, its
 * database and its saved sign-in state, so two runs do not collide.
 */
const dbFile = `${DATA_DIR}/baton.db`;
const chromium = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--disable-quic",
  ],
};
export default defineConfig({
  testDir: "./e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL: BASE_URL,
    screenshot: "on",
    trace: "retain-on-failure",
    launchOptions: chromium,
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts$/, use: { ...devices["Desktop Chrome"] } },
    {
      name: "ui",
      testMatch: /.*\.spec\.ts$/,
      dependencies: ["setup"],
      use: { ...devices["Desktop Chrome"], storageState: ADMIN_STATE },
    },
    // The dashboard as a teammate reaches it: plain HTTP at a LAN name (LAN_HOST resolves to the
    // server's 127.0.0.1 inside Chromium alone), signing in afresh.
    {
      name: "lan",
      testMatch: /.*\.lan\.ts$/,
      dependencies: ["setup"],
      use: {
        ...devices["Desktop Chrome"],
        baseURL: LAN_URL,
        launchOptions: { ...chromium, args: [...chromium.args, `--host-resolver-rules=MAP ${LAN_HOST} 127.0.0.1`] },
      },
    },
    // HTTP only, with the Bearer token auth.setup.ts made (see e2e/api-fixtures.ts); no browser page.
    { name: "api", testMatch: /.*\.api\.ts$/, dependencies: ["setup"] },
  ],
  webServer: {
    // BATON_BASE_URL as a deployment sets it: the links in served contexts and the dashboard's
    // snippets then name the address the tests use (without it, Next reports the host as localhost).
    command: `rm -f ${dbFile} ${dbFile}-wal ${dbFile}-shm ${dbFile}.secret && DATABASE_URL=${DATABASE_URL} BATON_BASE_URL=${BASE_URL} NEXT_TELEMETRY_DISABLED=1 node node_modules/next/dist/bin/next start -p ${PORT} -H 127.0.0.1`,
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
