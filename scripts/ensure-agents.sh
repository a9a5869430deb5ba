#!/usr/bin/env bash
# Puts the real coding agents from npm into .tools/<agent>/ for their end-to-end tests
# (test/integration/agent-<agent>.test.ts), which run them offline against local doubles of their model
# APIs. Prints nothing but errors. Kept out of package.json: they are test tools, hundreds of MB, and
# nothing of Baton imports them. Pinned: the tests read what each agent sends to its model and what it
# writes in its transcript, so a new release is adopted on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."

# ensure <dir under .tools> <npm spec> <bin name>: installs when the binary is missing or does not run.
ensure() {
  local dir=".tools/$1" spec="$2" bin=".tools/$1/node_modules/.bin/$3"
  if [ ! -x "$bin" ] || ! "$bin" --version >/dev/null 2>&1; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "$spec" >/dev/null
  fi
}

ensure codex @openai/codex@0.169.0 codex
