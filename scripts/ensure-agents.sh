#!/usr/bin/env bash
# Puts the real coding agents from npm into .tools/<dir>/ and prints nothing but errors. Used by the
# agent tests (test/integration/agent-<agent>.test.ts), which run each one offline against a local
# double of its model API. Kept out of package.json: they are test tools, and nothing of Baton imports them.
# Pinned: the tests read what each agent sends to its model and writes to its transcript, so a new
# release is adopted on purpose. `bash scripts/ensure-agents.sh` installs them all.
set -euo pipefail
cd "$(dirname "$0")/.."

# ensure <dir> <npm-spec> <bin>: installs <npm-spec> into .tools/<dir> unless its <bin> already runs.
ensure() {
  local dir=".tools/$1" bin=".tools/$1/node_modules/.bin/$3"
  if [ ! -x "$bin" ] || ! "$bin" --version >/dev/null 2>&1; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "$2" >/dev/null
  fi
}

ensure gemini @google/gemini-cli@0.61.0 gemini
