import { describe, expect, it } from "vitest";
import { emptySession, type SessionEvent } from "@/cli/src/agents/session";
import { extractLessons, MAX_LESSON_EVENTS } from "@/cli/src/lessons/extract-lessons";
import { agent, shell, user } from "../support/lesson-session";

// A safety net on the extractor's time (audit 20: a 58 MB transcript kept the session-end worker busy for
// five minutes): lessons are drawn from a session's last MAX_LESSON_EVENTS events at most, their evidence
// still numbered as the whole transcript numbers it. No labelled session comes near the bound
// (test/unit/lessons-recorded.test.ts holds what they give).

const correction = [user("add lodash to the web app"), shell("npm install lodash", false, "added 1 package"), user("no, this repo uses pnpm, not npm. the lockfile is pnpm-lock.yaml")];
const fixedFailure = [
  user("the date test fails, fix it"),
  shell("npm test", true, "FAIL test/date.test.ts\n  expected 2026-01-01 to equal 2025-12-31"),
  agent("CI runs with TZ=UTC, that's why it only fails locally: the test formats a date in the local zone."),
  shell("TZ=UTC npm test", false, "Tests: 42 passed"),
];
const filler = (n: number) => Array.from({ length: n }, (_, k) => shell(`ls dir${k}`, false, "a.txt b.txt"));
const sessionOf = (events: SessionEvent[]) => ({ ...emptySession("gemini"), events });

describe("extractLessons on a session longer than it reads", () => {
  it("draws lessons from the last MAX_LESSON_EVENTS events only, with evidence numbered in the whole session", () => {
    expect(extractLessons(sessionOf([...correction, ...filler(10), ...fixedFailure])).map((l) => l.lesson)).toEqual(["correction", "resolved_failure"]);
    const events = [...correction, ...filler(MAX_LESSON_EVENTS), ...fixedFailure];
    const found = extractLessons(sessionOf(events));
    expect(found.map((l) => l.lesson)).toEqual(["resolved_failure"]);
    const skipped = events.length - MAX_LESSON_EVENTS;
    expect(found[0]!.evidence.map((e) => e.turn)).toEqual([events.length - 3, events.length - 2, events.length - 1]);
    // The same as the last events alone would give, but for where the turns count from.
    const recent = extractLessons(sessionOf(events.slice(skipped)));
    expect(found).toEqual(recent.map((l) => ({ ...l, evidence: l.evidence.map((e) => ({ ...e, turn: e.turn + skipped })) })));
  });

  it("reads a session of exactly MAX_LESSON_EVENTS events whole", () => {
    const events = [...correction, ...filler(MAX_LESSON_EVENTS - correction.length - fixedFailure.length), ...fixedFailure];
    expect(events).toHaveLength(MAX_LESSON_EVENTS);
    expect(extractLessons(sessionOf(events)).map((l) => l.lesson)).toEqual(["correction", "resolved_failure"]);
  });
});
