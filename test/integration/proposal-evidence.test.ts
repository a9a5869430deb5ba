import { describe, expect, it } from "vitest";
import { MAX_EVIDENCE_CHARS, MAX_EVIDENCE_LINES } from "@/lib/rules";
import { tableCounts } from "../support/fixtures";
import { testWorld } from "../support/world";

// Issue 23, item 1: a proposal keeps the kind of lesson it is, the session lines it came from, and how
// it was found; a merge keeps the first one's evidence, an edited accept keeps it, and the audit says
// the kind of lesson. One real server on a real database file, the standard cast (ana owns alpha).
const world = testWorld();
const { databaseUrl, as } = world;

const evidence = [
  { turn: 3, at: "2026-11-26T10:00:00.000Z", who: "user", text: "No, this repo uses pnpm, not npm." },
  { turn: 4, at: null, who: "assistant", text: "Right, switching to `pnpm install`." },
  { turn: 5, at: "2026-11-26T10:00:09+01:00", who: "tool", text: "pnpm install: done in 4.1s" },
];
const propose = (body: Record<string, unknown>) => as("ana")("POST", "/api/proposals", { kind: "pattern", project: "alpha", ...body });

describe("proposals keep their evidence, kind of lesson and method", () => {
  it("POST stores them, the answer and GET give them back; a proposal that does not say has null", async () => {
    const res = await propose({ content: "This repository uses pnpm, not npm.", lesson: "correction", evidence, method: "transcript", source: "s-1" });
    expect(res.status, res.text).toBe(201);
    expect(res.json.proposal).toMatchObject({ lesson: "correction", method: "transcript", evidence });
    const plain = await propose({ content: "Deploys go out on Tuesdays." });
    expect(plain.json.proposal).toMatchObject({ lesson: null, method: null, evidence: null });
    const listed = (await as("bo")("GET", "/api/proposals?project=alpha")).json.items as { id: string }[];
    expect(listed.find((p) => p.id === res.json.proposal.id)).toMatchObject({ lesson: "correction", method: "transcript", evidence });
    expect(await world.sql("SELECT lesson, method, evidence FROM proposals WHERE id = ?", [res.json.proposal.id])).toEqual([
      { lesson: "correction", method: "transcript", evidence: JSON.stringify(evidence) },
    ]);
  });

  it("a near-duplicate merged into a pending proposal keeps the first one's evidence and lesson", async () => {
    const first = (await propose({ content: "Integration tests need docker compose up -d db first.", lesson: "resolved_failure", evidence: evidence.slice(0, 1), method: "transcript" })).json.proposal;
    const again = await propose({ content: "integration tests need `docker compose up -d db` first", lesson: "fact", evidence: evidence.slice(1), method: "agent" });
    expect(again.status, again.text).toBe(200);
    expect(again.json).toMatchObject({ merged: "proposal", proposal: { id: first.id, lesson: "resolved_failure", method: "transcript", evidence: evidence.slice(0, 1), mergedCount: 1 } });
  });

  it("a near-duplicate fills what the pending proposal lacks: one an agent proposed gets the session's lines and lesson", async () => {
    const first = (await propose({ content: "Staging lives in eu-west-1, not us-east-1.", method: "agent" })).json.proposal;
    expect(first).toMatchObject({ lesson: null, evidence: null });
    const again = await propose({ content: "staging lives in eu-west-1 not us-east-1", lesson: "correction", evidence, method: "transcript" });
    expect(again.json).toMatchObject({ merged: "proposal", proposal: { id: first.id, lesson: "correction", method: "agent", evidence, mergedCount: 1 } });
  });

  it("a twin decided before the merge lands takes none: the sighting is a proposal of its own", async () => {
    const first = (await propose({ content: "Release notes are drafted in the wiki first." })).json.proposal;
    await world.sql("UPDATE proposals SET status = 'rejected' WHERE id = ?", [first.id]);
    const again = await propose({ content: "release notes are drafted in the wiki first", evidence });
    expect(again.status, again.text).toBe(201);
    expect(again.json).toMatchObject({ merged: false, proposal: { status: "pending", evidence } });
  });

  it("text that grows past a limit once its secrets are withheld: evidence is cut back, content refused before it is stored; listing never breaks", async () => {
    // Each short secret becomes "[withheld: secret]": 296 characters sent, over 300 once withheld.
    const text = Array.from({ length: 27 }, () => "token=ab12").join(" ");
    expect(text.length).toBeLessThanOrEqual(MAX_EVIDENCE_CHARS);
    const cutBack = await propose({ content: "Deploy credentials stay out of the shell history.", evidence: [{ turn: 1, at: null, who: "user", text }] });
    expect(cutBack.status, cutBack.text).toBe(201);
    const [line] = cutBack.json.proposal.evidence;
    expect(line.text.length).toBeLessThanOrEqual(MAX_EVIDENCE_CHARS);
    expect(line.text).toMatch(/^token=\[withheld[^\]]*\] .*…$/);
    expect(line.text).not.toContain("ab12");
    const before = await world.sql("SELECT count(*) AS n FROM proposals");
    const content = Array.from({ length: 900 }, () => "token=ab12").join(" ");
    expect(content.length).toBeLessThanOrEqual(10_000);
    const res = await propose({ content });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error).toMatchObject({ code: "validation_failed" });
    expect(res.json.error.message).toContain("once the secrets in it are withheld");
    expect(await world.sql("SELECT count(*) AS n FROM proposals")).toEqual(before);
    // A row stored longer than today's limits (an older version's) is still listed, not refused as the reader's input.
    const kept = (await propose({ content: "Feature flags are read at boot." , evidence: evidence.slice(0, 1) })).json.proposal;
    await world.sql("UPDATE proposals SET evidence = ? WHERE id = ?", [JSON.stringify([{ ...evidence[0], text: "x".repeat(MAX_EVIDENCE_CHARS + 50) }]), kept.id]);
    const listed = await as("bo")("GET", "/api/proposals?project=alpha");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.items.find((p: { id: string }) => p.id === kept.id).evidence[0].text).toHaveLength(MAX_EVIDENCE_CHARS + 50);
  });

  it("accepting with edited text keeps the evidence on the proposal, and the audit says the kind of lesson", async () => {
    const p = (await propose({ content: "An outbox table, not publishing from the handler.", lesson: "decision", evidence, method: "transcript", agent: "codex" })).json.proposal;
    const accepted = await as("ana")("POST", `/api/proposals/${p.id}/accept`, { content: "Events go through an outbox table, because the handler's transaction may roll back." });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json.proposal).toMatchObject({ status: "accepted", content: "Events go through an outbox table, because the handler's transaction may roll back.", lesson: "decision", evidence });
    expect((await as("ana")("GET", "/api/proposals?status=accepted")).json.items.find((x: { id: string }) => x.id === p.id)).toMatchObject({ evidence });
    const [entry] = (await as("ana")("GET", "/api/projects/alpha/audit")).json.items;
    expect(entry).toMatchObject({ action: "accept", subject: { id: p.id }, detail: "lesson: decision; edited before accepting; proposed by Codex CLI" });
  });

  it("secrets in evidence are withheld like those in the content", async () => {
    const secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    const res = await propose({ content: "The CI token lives in the vault.", lesson: "fact", evidence: [{ turn: 1, at: null, who: "tool", text: `export GH_TOKEN=${secret}` }] });
    expect(res.status, res.text).toBe(201);
    expect(JSON.stringify(res.json.proposal.evidence)).not.toContain(secret);
    expect(JSON.stringify(await world.sql("SELECT evidence FROM proposals WHERE id = ?", [res.json.proposal.id]))).not.toContain(secret);
  });

  const line = evidence[0]!;
  it.each([
    { name: "a kind of lesson Baton does not know", body: { lesson: "hunch" }, field: "lesson" },
    { name: "a method Baton does not know", body: { method: "regex" }, field: "method" },
    { name: "more evidence lines than allowed", body: { evidence: Array.from({ length: MAX_EVIDENCE_LINES + 1 }, () => line) }, field: "evidence" },
    { name: "an evidence line too long", body: { evidence: [{ ...line, text: "x".repeat(MAX_EVIDENCE_CHARS + 1) }] }, field: "evidence" },
    { name: "an empty evidence line", body: { evidence: [{ ...line, text: "" }] }, field: "evidence" },
    { name: "a negative turn", body: { evidence: [{ ...line, turn: -1 }] }, field: "evidence" },
    { name: "a fractional turn", body: { evidence: [{ ...line, turn: 1.5 }] }, field: "evidence" },
    { name: "a time that is not ISO 8601", body: { evidence: [{ ...line, at: "yesterday" }] }, field: "evidence" },
    { name: "a speaker Baton does not know", body: { evidence: [{ ...line, who: "system" }] }, field: "evidence" },
    { name: "an evidence line with a field of its own", body: { evidence: [{ ...line, html: "<b>x</b>" }] }, field: "evidence" },
    { name: "evidence that is not a list", body: { evidence: "No, use pnpm." }, field: "evidence" },
  ])("$name → 400 naming the field, nothing stored", async ({ body, field }) => {
    const before = await tableCounts(databaseUrl);
    const res = await propose({ content: "Use pnpm here.", ...body });
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ ok: false, error: { code: "validation_failed" } });
    expect(res.json.error.issues.map((i: { path: string[] }) => i.path[0])).toContain(field);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it("pai-seed methods of its own are still read", async () => {
    const seed = { version: "1.0.0", identity: { principalName: "cy", aiName: "Kai" }, learned: { patterns: [], insights: [], selfKnowledge: [] }, state: { proposals: [{ id: "p-regex", type: "pattern", content: "Prefer small commits.", source: "s", extractedAt: "2026-01-01T00:00:00.000Z", status: "pending", method: "regex" }] } };
    const imported = await as("cy")("POST", "/api/seed/import", seed);
    expect(imported.status, imported.text).toBeLessThan(300);
    const items = (await as("cy")("GET", "/api/proposals")).json.items;
    expect(items).toMatchObject([{ content: "Prefer small commits.", method: "regex", lesson: null, evidence: null }]);
  });
});
