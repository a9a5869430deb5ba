#!/usr/bin/env bash
# Puts the real coding agents (from npm, pinned) under .tools/<dir>/ for the agent tests
# (test/integration/agent-<agent>.test.ts), which run them offline against local doubles of their
# model APIs. With an agent's directory as argument it ensures that one and prints its binary's path;
# without, it ensures them all and prints nothing but errors.
# Kept out of package.json: they are test tools, hundreds of MB, and nothing of Baton imports them.
set -euo pipefail
cd "$(dirname "$0")/.."
wanted="${1:-}"

# Pinned: the tests read what each agent sends to the model and writes to disk, so a new release is
# adopted on purpose.
ensure() {
  local dir=".tools/$1" spec="$2" bin=".tools/$1/node_modules/.bin/$3"
  if [ -n "$wanted" ] && [ "$wanted" != "$1" ]; then return; fi
  # The check runs in the tool's own HOME and cache: Copilot CLI unpacks ~235 MB into the cache on
  # its first run, which must not land in the user's; the tests point XDG_CACHE_HOME there too.
  if [ ! -x "$bin" ] || ! HOME="$PWD/$dir/home" XDG_CACHE_HOME="$PWD/$dir/cache" "$bin" --version >/dev/null 2>&1; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "$spec" >&2
  fi
  if [ -n "$wanted" ]; then echo "$PWD/$bin"; fi
}

# ensure_deps <agent> <dir> <npm spec>: a package installed and saved in .tools/<dir> (its package.json
# and package-lock.json name it), for an agent that checks its config folder's dependencies that way.
ensure_deps() {
  local dir=".tools/$2" name=${3%@*}
  if [ -n "$wanted" ] && [ "$wanted" != "$1" ]; then return; fi
  if [ ! -f "$dir/node_modules/$name/package.json" ] || ! grep -q "\"$name\"" "$dir/package-lock.json" 2>/dev/null; then
    mkdir -p "$dir"
    [ -f "$dir/package.json" ] || echo '{}' >"$dir/package.json"
    npm install --prefix "$dir" --save-exact --no-audit --no-fund --loglevel=error "$3" >&2
  fi
}

ensure codex @openai/codex@0.169.0 codex
ensure copilot @github/copilot@1.0.102 copilot
ensure gemini @google/gemini-cli@0.61.0 gemini
ensure opencode opencode-ai@1.18.33 opencode
# opencode loads Baton's plugin only after npm-installing @opencode-ai/plugin into its config folder
# (75 s of retries offline): the test copies this folder's package files and links its node_modules there.
ensure_deps opencode opencode/config @opencode-ai/plugin@1.18.33
