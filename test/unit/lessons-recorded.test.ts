import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Session } from "@/cli/src/agents/session";
import { extractLessons } from "@/cli/src/lessons/extract-lessons";
import { findCorrections } from "@/cli/src/lessons/find-corrections";
import { findExplicit } from "@/cli/src/lessons/find-explicit";
import { findResolvedFailures } from "@/cli/src/lessons/find-failures";
import { findDecisions, findFacts } from "@/cli/src/lessons/find-statements";
import { linesOf } from "@/cli/src/lessons/session-lines";
import { supportOf } from "@/cli/src/lessons/support";
import { labelledSessions, mixedSessions } from "../support/lessons-mixed";

// The lesson extractor reads a session through indexes (the next user or agent line, lines by turn)
// instead of scanning it for every line: on a long transcript the scans took minutes (audit 20). The
// indexes must find exactly what the scans found. Recorded before the change, from the scanning
// extractor: the lessons of every labelled session in full, and for 300 sessions stitched from pieces of
// them (test/support/lessons-mixed.ts) a digest of each finder's candidates with what backs each, and of
// the lessons (which keep only the few best, and would hide a finder's change). Record again, only for a
// change meant to change what is found: BATON_RECORD_LESSONS=1 npx vitest run test/unit/lessons-recorded.test.ts

const RECORDED = path.resolve(import.meta.dirname, "../fixtures/lessons-recorded.json");
type Recorded = { labelled: Record<string, unknown>; mixed: Record<string, string> };
const digest = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
const FINDERS = [findExplicit, findCorrections, findResolvedFailures, findDecisions, findFacts];
/** Everything the extractor works out for a session: each finder's candidates, what backs each, the lessons. */
function worked(session: Session) {
  const lines = linesOf(session);
  const candidates = FINDERS.map((find) => find(session, lines).map((lesson) => ({ lesson, support: supportOf(session, lesson) })));
  return digest({ candidates, lessons: extractLessons(session) });
}

const labelled = labelledSessions();
const mixed = mixedSessions(300);

if (process.env.BATON_RECORD_LESSONS) {
  const record: Recorded = {
    labelled: Object.fromEntries(labelled.map(({ name, session }) => [name, extractLessons(session)])),
    mixed: Object.fromEntries(mixed.map(({ name, session }) => [name, worked(session)])),
  };
  writeFileSync(RECORDED, `${JSON.stringify(record, null, 1)}\n`);
}
const recorded = JSON.parse(readFileSync(RECORDED, "utf8")) as Recorded;

describe("extractLessons finds what it found before reading through indexes", () => {
  it("on every labelled session", () => {
    expect(Object.keys(recorded.labelled).sort()).toEqual(labelled.map((s) => s.name).sort());
    for (const { name, session } of labelled) expect(extractLessons(session), name).toEqual(recorded.labelled[name]);
  });

  it("on sessions stitched from pieces of them", () => {
    expect(mixed.filter(({ session }) => extractLessons(session).length > 0).length).toBeGreaterThan(200);
    for (const { name, session } of mixed) expect(worked(session), name).toBe(recorded.mixed[name]);
  });
});
