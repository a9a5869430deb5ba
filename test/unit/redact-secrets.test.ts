import { describe, expect, it } from "vitest";
import { buildHandoff } from "@/cli/src/transcript/build-handoff";
import { parseClaudeTranscript as parseTranscript } from "@/cli/src/agents/claude/transcript";
import { PRIVATE_MARKER, SecretRedactor } from "@/lib/secrets/redact-secrets";
import { redactTranscript } from "@/cli/src/transcript/redact-transcript";
import { NOT_SECRETS, SECRET_CORPUS } from "../fixtures/secrets/secret-corpus";

describe("SecretRedactor", () => {
  it.each(SECRET_CORPUS.map((s) => [s.name, s] as const))("withholds a %s", (_name, sample) => {
    const redactor = new SecretRedactor();
    const out = redactor.text(`before ${sample.text} after`);
    expect(out).not.toContain(sample.secret);
    expect(out).toMatch(/\[withheld: [^\]]+\]|\[private: withheld\]/);
    expect(out.startsWith("before ")).toBe(true);
    expect(out.endsWith(" after")).toBe(true);
  });

  it.each(NOT_SECRETS.map((t) => [t]))("leaves %j alone", (text) => {
    const redactor = new SecretRedactor();
    expect(redactor.text(text)).toBe(text);
    expect(redactor.summary()).toBeNull();
  });

  // The generic rule (issue 21): a credential in prose, without a NAME=value shape.
  it.each([
    ["the issue's AWS key in prose", "…with secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "…with secret [withheld: secret]"],
    ["a key after its value", "Xk3n9Qz2LmP8vR7tW1yBa4 is the HMAC key", "[withheld: secret] is the HMAC key"],
    ["hex right after a secret word", "Twilio auth token: 22957a5241b90c48e6562163ea0e7d49", "Twilio auth token: [withheld: secret]"],
    ["a password in a sentence", "the password is Plum-Velvet-93! for now", "the password is [withheld: password] for now"],
  ])("withholds %s", (_name, text, expected) => {
    expect(new SecretRedactor().text(text)).toBe(expected);
  });

  it.each([
    "commit 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b fixed the token refresh",
    "the token hash is 0e1353fbdb3f6b0a8129ac1c8c92632ff5f77c2548b13c279726a36a58162975",
    '"integrity": "sha512-Y3dgX/6lE2QhQb+Gxy0WZxfg9MEm/JBjamZpS2IklP7xIQoKN4hzAm7KcMVGtaVDt3neE9OKBC7vAfonA/Lr1A==" (lockfile key)',
    "the API key id is 6f1c2a3b-4d5e-4f60-8a1b-2c3d4e5f6a7b",
    "the secret is in packages/api-keys/src/v2/rotateKeys.ts",
    "secret sauce: https://example.com/docs/v2/auth/tokens",
    "the key version is 2.4.1-beta.3+build.20261126",
    "the key ProductionDeployKey2024 is used by CI",
    "public key ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl ana@laptop",
    "the key colour is #ff00aa, the accent #123456",
    "the password must be at least 8 characters",
    "export function api(baseUrl: string, token: string): Api {",
    "const token = await findTokenByHash(db, { tokenHash });",
    "password: z.string().min(8, { message: \"Use at least 8 characters.\" })",
    "const TOKEN_CACHE_MS = 5000;",
    'export const TOKEN_PREFIX = "baton_";',
  ])("leaves %j alone (generic rule)", (text) => {
    expect(new SecretRedactor().text(text)).toBe(text);
  });

  it("still withholds a quoted word after a secret name", () => {
    expect(new SecretRedactor().text('{"password": "hunter"}')).toBe('{"password": [withheld: secret]}');
  });

  it("keeps the name of an assignment, the user of a URL and the scheme", () => {
    const redactor = new SecretRedactor();
    expect(redactor.text("DB_PASSWORD=hunter2hunter2 psql postgres://admin:pa55word@db:5432/app")).toBe(
      "DB_PASSWORD=[withheld: secret] psql postgres://admin:[withheld: password]@db:5432/app",
    );
  });

  it("withholds an unclosed private block to the end of its text", () => {
    const redactor = new SecretRedactor();
    expect(redactor.text("ok <private>all of this\nand this")).toBe(`ok ${PRIVATE_MARKER}`);
  });

  it("counts distinct secrets and private blocks across texts, and says so in one line", () => {
    const redactor = new SecretRedactor();
    const token = SECRET_CORPUS.find((s) => s.name === "GitHub classic token")!.secret;
    redactor.text(`${token} and again ${token}`);
    redactor.deep({ command: `curl -H 'Authorization: Bearer ${token}'`, nested: ["password=correct-horse", "<private>x</private>"] });
    expect(redactor.counts).toEqual({ secrets: 2, privateBlocks: 1 });
    expect(redactor.summary()).toBe("2 secrets and 1 private block withheld by baton.");
  });

  it("keeps the shape of a value it redacts deeply", () => {
    const redactor = new SecretRedactor();
    expect(redactor.deep({ a: 1, b: [true, null, "password=hunter22"], c: { d: "plain" } })).toEqual({ a: 1, b: [true, null, "password=[withheld: secret]"], c: { d: "plain" } });
  });
});

describe("a redacted transcript's handoff", () => {
  it("carries no secret from any event, and says what was withheld", () => {
    const all = SECRET_CORPUS.map((s) => s.text).join("\n");
    const lines = [
      { type: "user", message: { content: `Deploy with ${SECRET_CORPUS[0]!.text}` } },
      { type: "assistant", message: { content: [{ type: "text", text: all }, { type: "tool_use", name: "Bash", input: { command: SECRET_CORPUS[2]!.text } }, { type: "tool_use", name: "Write", input: { file_path: "/r/.env", content: all } }] } },
    ];
    const redactor = new SecretRedactor();
    const transcript = redactTranscript(parseTranscript(lines.map((l) => JSON.stringify(l)).join("\n")), redactor);
    const markdown = buildHandoff({ transcript, lastAssistantMessage: null, cwd: "/r", sessionId: "s1", withheld: redactor.summary() })!;
    for (const sample of SECRET_CORPUS) expect(JSON.stringify(transcript)).not.toContain(sample.secret);
    expect(markdown.split("\n")[1]).toMatch(/^\d+ secrets and 1 private block withheld by baton\.$/);
  });
});
