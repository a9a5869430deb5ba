#!/usr/bin/env bash
# Puts the real coding agents the agent tests drive (test/integration/agent-*.test.ts) into .tools/<agent>/,
# each from npm at a pinned version (a new release is adopted on purpose: the tests read what the agent
# sends to the model and writes to disk). Prints nothing but errors. `ensure-agents.sh opencode` ensures
# that agent alone; no argument, all of them. Kept out of package.json: test tools, nothing of Baton imports them.
set -euo pipefail
cd "$(dirname "$0")/.."

# ensure <agent> <npm spec> <bin>: installs the spec into .tools/<agent> unless its bin answers --version.
ensure() {
  local dir=".tools/$1" spec=$2 bin=".tools/$1/node_modules/.bin/$3"
  if [ ! -x "$bin" ] || ! "$bin" --version >/dev/null 2>&1; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "$spec" >&2
  fi
}

# ensure_deps <dir> <npm spec>: a package installed and saved in .tools/<dir> (its package.json and
# package-lock.json name it), for an agent that checks its config folder's dependencies that way.
ensure_deps() {
  local dir=".tools/$1" name=${2%@*}
  if [ ! -f "$dir/node_modules/$name/package.json" ] || ! grep -q "\"$name\"" "$dir/package-lock.json" 2>/dev/null; then
    mkdir -p "$dir"
    [ -f "$dir/package.json" ] || echo '{}' >"$dir/package.json"
    npm install --prefix "$dir" --save-exact --no-audit --no-fund --loglevel=error "$2" >&2
  fi
}

selected=("$@")
agent() { [ ${#selected[@]} -eq 0 ] || [[ " ${selected[*]} " == *" $1 "* ]]; }

# opencode loads Baton's plugin only after npm-installing @opencode-ai/plugin into its config folder
# (75 s of retries offline): the test copies this folder's package files and links its node_modules there.
if agent opencode; then
  ensure opencode opencode-ai@1.18.33 opencode
  ensure_deps opencode/config @opencode-ai/plugin@1.18.33
fi
