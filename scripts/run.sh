#!/usr/bin/env bash
# Runs Baton on this machine: installs dependencies, builds when the sources changed, then serves
# http://localhost:${PORT:-3000}, or https:// with BATON_TLS_CERT and BATON_TLS_KEY (PEM files; one
# without the other stops the start with a message). The database (default file:./data/baton.db) is
# created and migrated by the server at start.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] || [ ! -f cli/dist/baton.js ]; then
  # A first install takes a minute or more and prints nothing meanwhile: say what the wait is.
  echo "baton: installing dependencies (npm install)…"
  npm install --no-audit --no-fund --loglevel=error
fi

stale() {
  [ ! -f .next/BUILD_ID ] && return 0
  [ -n "$(find app lib components cli/src drizzle public proxy.ts instrumentation.ts next.config.ts package.json package-lock.json \
    -newer .next/BUILD_ID -print -quit 2>/dev/null)" ]
}
if stale; then
  echo "baton: building…"
  npm run build --silent
fi

# `next start` has no TLS: Baton's own server around Next.js's request handler serves HTTPS.
if [ -n "${BATON_TLS_CERT:-}${BATON_TLS_KEY:-}" ]; then
  export PORT="${PORT:-3000}" BATON_HOST="${BATON_HOST:-0.0.0.0}"
  exec node scripts/https-server.mjs
fi
exec node node_modules/next/dist/bin/next start -p "${PORT:-3000}" -H "${BATON_HOST:-0.0.0.0}"
