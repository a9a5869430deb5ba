import { describe, expect, it } from "vitest";
import { buildHandoff } from "@/cli/src/transcript/build-handoff";
import { parseTranscript } from "@/cli/src/transcript/parse-transcript";
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
