// Writes test/fixtures/secrets/ordinary.txt: ordinary transcript text with no secret in it, for counting
// the redactor's false positives. Run once (2026-11-26, at commit af46de2) and committed, so the count is
// comparable run to run: `node bench/secrets/make-ordinary.mjs`. Real text (this repository's git
// history, package-lock.json, source and docs, node_modules READMEs) interleaved with log lines, UUIDs,
// base64 of real text, CSS colours and tool output generated from a fixed seed. Files that hold fake
// credentials on purpose (test/, the redactor, BENCHMARKS' secret section) are left out.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, readdirSync, existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
let seed = 0x2106;
const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const int = (a, b) => a + Math.floor(rnd() * (b - a + 1));
const hex = (n) => Array.from({ length: n }, () => "0123456789abcdef"[int(0, 15)]).join("");
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(["8", "9", "a", "b"])}${hex(3)}-${hex(12)}`;
const iso = () => `2026-11-${String(int(1, 26)).padStart(2, "0")}T${String(int(0, 23)).padStart(2, "0")}:${String(int(0, 59)).padStart(2, "0")}:${String(int(0, 59)).padStart(2, "0")}.${String(int(0, 999)).padStart(3, "0")}Z`;
const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
const lines = (text) => text.split("\n").filter((l) => l.trim());

const sections = [];
const COMMIT = "af46de2";

// Git: full and short SHAs beside commit messages that talk about tokens and secrets.
sections.push(lines(git("log", COMMIT, "-n", "150", "--stat", "--format=commit %H%nAuthor: %an <%ae>%nDate:   %ad%n%n    %s%n")));
sections.push(lines(git("log", COMMIT, "--oneline", "-n", "240")));
sections.push(lines(git("log", COMMIT, "-n", "60", "--format=%h %s (%ar)")));

// package-lock.json: resolved URLs, sha512 integrity hashes, versions.
const lock = readFileSync(path.join(root, "package-lock.json"), "utf8").split("\n");
sections.push(lock.slice(0, 2200));

// Source and docs of this repository (code, comments, Markdown), as a transcript quotes them.
const skip = /(^|\/)(test|e2e|node_modules|\.next|cli\/dist|drizzle\/meta)(\/|$)|redact-secrets|lib\/secrets|bench\/secrets|BENCHMARKS/;
const files = git("ls-tree", "-r", "--name-only", COMMIT).split("\n").filter((f) => /\.(ts|tsx|md|mjs|css|sql)$/.test(f) && !skip.test(f));
for (const f of files.slice(0, 400)) sections.push([`Read ${f}`, ...lines(git("show", `${COMMIT}:${f}`)).slice(0, 40)]);

// READMEs of installed packages: ordinary prose about APIs, keys, tokens and auth.
const modules = path.join(root, "node_modules");
for (const name of readdirSync(modules).sort().slice(0, 200)) {
  const readme = path.join(modules, name, "README.md");
  if (existsSync(readme)) sections.push(lines(readFileSync(readme, "utf8")).slice(0, 25));
}

// Generated: log lines with request ids, trace ids, UUIDs, digests; base64 of real text; CSS colours.
const routes = ["/api/learnings", "/api/handoffs", "/api/context", "/api/proposals", "/api/tasks/ENG-12/memory", "/api/sessions", "/api/tokens", "/sign-in", "/settings/tokens"];
const generated = [];
for (let i = 0; i < 1500; i++) {
  const kind = int(0, 11);
  if (kind === 0) generated.push(`${iso()} info  ${pick(["GET", "POST", "PATCH", "DELETE"])} ${pick(routes)} ${pick([200, 201, 204, 400, 401, 404, 409])} ${int(2, 900)}ms request_id=${uuid()}`);
  else if (kind === 1) generated.push(`{"level":"info","time":"${iso()}","traceId":"${hex(32)}","spanId":"${hex(16)}","msg":"${pick(["token verified", "session refreshed", "context served", "learning stored", "auth ok"])}","userId":"${uuid()}"}`);
  else if (kind === 2) generated.push(`  {"id": "${uuid()}", "name": "${pick(["laptop", "ci", "desk"])}", "prefix": "baton_${hex(4)}", "scopes": ["read", "write"], "lastUsedAt": "${iso()}"}`);
  else if (kind === 3) generated.push(`${pick(["docker pull", "Digest:", "image"])} ${pick(["node", "postgres", "ghcr.io/acme/web"])}@sha256:${hex(64)}`);
  else if (kind === 4) {
    const text = pick(lock.filter((l) => l.length > 30)) + pick(files);
    generated.push(`${pick(["echo", "data:", "payload="])}${Buffer.from(text).toString("base64")}`);
  } else if (kind === 5) generated.push(`  ${pick(["color", "background", "border-color", "--accent", "fill"])}: #${hex(pick([3, 6, 8]))};`);
  else if (kind === 6) generated.push(`${pick(["✓", "×"])} test/${pick(["unit", "integration"])}/${pick(files).replace(/.*\//, "").replace(/\.\w+$/, "")}.test.ts (${int(1, 40)} tests) ${int(10, 9000)}ms`);
  else if (kind === 7) generated.push(`${pick(files)}:${int(1, 300)}:${int(1, 80)} - error TS${int(2000, 7000)}: Type '${pick(["string", "number", "undefined"])}' is not assignable to type '${pick(["ApiToken", "SessionKey", "TokenRow", "Secret"])}'.`);
  else if (kind === 8) generated.push(`$ git checkout -b ${pick(["fix", "feat"])}/${pick(["token-expiry", "auth-redirect", "secret-store", "api-key-rotation"])}-${hex(7)}`);
  else if (kind === 9) generated.push(`etag: W/"${hex(int(8, 27))}-${Buffer.from(hex(12)).toString("base64").slice(0, 27)}"`);
  else if (kind === 10) generated.push(`npm ${pick(["warn", "notice", "http fetch GET 200"])} https://registry.npmjs.org/${pick(lock.filter((l) => l.includes('"node_modules/')).map((l) => l.trim().slice(14, -4)))} ${int(5, 900)}ms (cache ${pick(["hit", "miss", "revalidated"])})`);
  else generated.push(`cursor=${Buffer.from(JSON.stringify([iso(), uuid()])).toString("base64url")} version=${int(0, 20)}.${int(0, 30)}.${int(0, 40)}${pick(["", "-beta." + int(1, 9), "-rc.1"])}`);
}
for (let i = 0; i < generated.length; i += 50) sections.push(generated.slice(i, i + 50));

// Interleave the sections in a seeded order, as a long session wanders between them.
for (let i = sections.length - 1; i > 0; i--) {
  const j = int(0, i);
  [sections[i], sections[j]] = [sections[j], sections[i]];
}
// Lines that hold a credential on purpose are no ordinary text: withholding them is right, not a false
// positive. Two kinds were found by reading every line the redactor changed: hard-coded test secrets in
// bench code, and a Codecov token in a README's badge URL.
const CREDENTIAL_ON_PURPOSE = /BATON_SECRET: "|const SECRET = "|badge\.svg\?token=/;
const out = sections.flat().filter((l) => !CREDENTIAL_ON_PURPOSE.test(l)).map((l) => l.slice(0, 400));
writeFileSync(path.join(root, "test/fixtures/secrets/ordinary.txt"), out.join("\n") + "\n");
console.log(`${out.length} lines`);
