#!/usr/bin/env bash
# Puts the real Claude Code (npm @anthropic-ai/claude-code, which ships its native binary) at
# .tools/claude-code/node_modules/.bin/claude and prints its path. Used by the plugin test
# (test/integration/cli-plugin.test.ts), which runs it offline against a local double of the model API.
# Kept out of package.json: it is a test tool, about 250 MB, and nothing of Baton imports it.
set -euo pipefail
cd "$(dirname "$0")/.."
# Pinned: the test reads what Claude Code sends to the model, so a new release is adopted on purpose.
CLAUDE_CODE_PACKAGE="@anthropic-ai/claude-code@2.1.197"
dir=.tools/claude-code
bin="$dir/node_modules/.bin/claude"
if [ ! -x "$bin" ] || ! "$bin" --version >/dev/null 2>&1; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "$CLAUDE_CODE_PACKAGE" >&2
fi
echo "$PWD/$bin"
