#!/bin/sh
# Installs the Baton CLI from a Baton server, served by it as GET /install.sh:
#
#   curl -fsSL https://baton.example.com/install.sh | sh
#
# Puts the server's one-file CLI (GET /cli/baton.mjs, Node.js 20 or newer) in ~/.local/share/baton
# ($XDG_DATA_HOME/baton when set to an absolute path), links it as ~/.local/bin/baton, and records the
# server's address as "url" in ~/.config/baton/config.json ($XDG_CONFIG_HOME/baton when set to an
# absolute path), keeping every other key there (your token). Running it again updates both.
#
# A server whose certificate comes from your team's own CA: give curl the CA for this script, and the
# script the same file as BATON_CA_FILE. It downloads the CLI trusting it and records it as "caFile",
# so the CLI and its hooks trust it too (curl's own CURL_CA_BUNDLE works for the download as well):
#
#   curl --cacert team-ca.pem -fsSL https://baton.example.com/install.sh | BATON_CA_FILE="$PWD/team-ca.pem" sh
set -eu

# Filled in by the server that served this script: the address the request came to.
url=@BATON_URL@

# An XDG base folder ($1) when it is an absolute path, else the default ($2). The XDG spec says a relative
# one is invalid and must be ignored, as the CLI ignores it (userFolder in cli/src/config/home.ts): read
# from where this runs, it put the CLI in that folder and left ~/.local/bin/baton a broken relative link.
xdg_folder() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "$2" ;;
  esac
}

bin_dir="$HOME/.local/bin"
target="$bin_dir/baton"
# The file keeps its .mjs name behind a symlink: Node 20 reads an extensionless script as CommonJS.
share_dir="$(xdg_folder "${XDG_DATA_HOME:-}" "$HOME/.local/share")/baton"
cli="$share_dir/baton.mjs"
config_file="$(xdg_folder "${XDG_CONFIG_HOME:-}" "$HOME/.config")/baton/config.json"

fail() {
  echo "baton install: $*" >&2
  exit 1
}

ca_file="${BATON_CA_FILE:-}"
if [ -n "$ca_file" ]; then
  case "$ca_file" in /*) ;; *) ca_file="$PWD/$ca_file" ;; esac
  [ -r "$ca_file" ] || fail "BATON_CA_FILE is $ca_file, which cannot be read: give the path of your team's CA certificate (PEM)."
fi

command -v node >/dev/null 2>&1 || fail "Baton's CLI runs on Node.js 20 or newer, and node is not on your PATH. Install Node.js (https://nodejs.org), then run this again."
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
  fail "Baton's CLI needs Node.js 20 or newer; $(command -v node) is $(node --version). Update Node.js, then run this again."

mkdir -p "$bin_dir" "$share_dir"
tmp="$share_dir/.baton-$$.mjs"
trap 'rm -f "$tmp"' EXIT

if command -v curl >/dev/null 2>&1; then
  if [ -n "$ca_file" ]; then set -- --cacert "$ca_file"; else set --; fi
  curl -fsSL "$@" "$url/cli/baton.mjs" -o "$tmp" || fail "could not download $url/cli/baton.mjs"
elif command -v wget >/dev/null 2>&1; then
  if [ -n "$ca_file" ]; then set -- --ca-certificate="$ca_file"; else set --; fi
  wget -q "$@" -O "$tmp" "$url/cli/baton.mjs" || fail "could not download $url/cli/baton.mjs"
else
  fail "needs curl or wget to download $url/cli/baton.mjs"
fi
version=$(node "$tmp" --version 2>/dev/null) || fail "$url/cli/baton.mjs did not run (is $url a Baton server?)"
chmod 755 "$tmp"
mv -f "$tmp" "$cli"
ln -sf "$cli" "$target"
echo "Installed the Baton CLI $version as $target (a link to $cli)."

# JSON is edited with node (there for the CLI anyway): the url is set, every other key is kept, and
# the file stays readable by you alone (it may hold your token). A file that is not a JSON object is
# left alone.
BATON_INSTALL_URL="$url" BATON_INSTALL_CA_FILE="$ca_file" BATON_INSTALL_CONFIG="$config_file" node -e '
const fs = require("node:fs");
const path = require("node:path");
const file = process.env.BATON_INSTALL_CONFIG;
const url = process.env.BATON_INSTALL_URL;
const caFile = process.env.BATON_INSTALL_CA_FILE;
let config = {};
if (fs.existsSync(file)) {
  try {
    // A byte order mark (as Notepad writes) is read past, as the CLI reads it (parseConfigText in cli/src/config/load-config.ts).
    config = JSON.parse(fs.readFileSync(file, "utf8").replace(/^\uFEFF/, "") || "{}");
  } catch (error) {
    config = null;
  }
  if (!config || typeof config !== "object" || Array.isArray(config)) {
    console.log(`${file} is not a JSON object, so it was left as it is: set "url": "${url}" in it yourself.`);
    process.exit(0);
  }
}
const before = config.url;
// A token (and the CA trusted for it) belongs to the server it was made on: never sent to another one.
const otherServer = typeof before === "string" && before.replace(/\/+$/, "").toLowerCase() !== url.toLowerCase();
const dropped = otherServer ? ["token", "caFile"].filter((key) => key in config && !(key === "caFile" && caFile)) : [];
for (const key of dropped) delete config[key];
const newCa = Boolean(caFile) && config.caFile !== caFile;
if (before !== url || newCa) {
  config.url = url;
  if (caFile) config.caFile = caFile;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  fs.renameSync(tmp, file);
}
console.log(before === url ? `Server: ${url} (already in ${file}).` : `Server: ${url}, recorded in ${file}${before ? ` (it was ${before})` : ""}.`);
if (dropped.length) console.log(`Removed ${dropped.join(" and ")} of ${before} from ${file}: they were for that server.`);
if (newCa) console.log(`Trusting the CA in ${caFile} for it ("caFile" in ${file}).`);
if (!config.token && !process.env.BATON_TOKEN) {
  console.log(`Next: run \`baton login\` to sign in (it prints a code to approve in your browser and keeps the token in ${file}).`);
}
'

case ":$PATH:" in
  *":$bin_dir:"*) echo "Run: baton --help" ;;
  *)
    echo "$bin_dir is not on your PATH. Add it, then open a new terminal:"
    echo "  echo 'export PATH=\"\$HOME/.local/bin:\$PATH\"' >> ~/.profile   # or ~/.bashrc, ~/.zshrc"
    echo "Until then, run it as: $target --help"
    ;;
esac
