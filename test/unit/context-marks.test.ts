import { describe, expect, it } from "vitest";
import { NO_MARK } from "../../lib/db/queries/context-marks";
import { advance, lastSessionSeenFrom, rememberSession, withRecent } from "../../lib/context/gather/marks";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 12, minute));

describe("context marks: the last session seen from a session", () => {
  it("a new session moves the last one back; the same session moves only its time; an older activity changes nothing", () => {
    const one = advance(NO_MARK, { sessionId: "s1", at: at(0) });
    const two = advance(one, { sessionId: "s2", at: at(5) });
    expect(two).toMatchObject({ lastSessionId: "s2", lastSessionAt: at(5), previousSessionAt: at(0) });
    expect(advance(two, { sessionId: "s2", at: at(9) })).toMatchObject({ lastSessionId: "s2", lastSessionAt: at(9), previousSessionAt: at(0) });
    expect(advance(two, { sessionId: "s1", at: at(1) })).toBe(two);
    // Handoffs of no session are never the same session.
    expect(advance(advance(NO_MARK, { sessionId: null, at: at(0) }), { sessionId: null, at: at(3) })).toMatchObject({ previousSessionAt: at(0) });
  });

  it("inside the last session, the one before it; from any other, the last", () => {
    const mark = advance(advance(NO_MARK, { sessionId: "s1", at: at(0) }), { sessionId: "s2", at: at(5) });
    expect(lastSessionSeenFrom(mark, "s2")).toEqual(at(0));
    expect(lastSessionSeenFrom(mark, "s3")).toEqual(at(5));
    expect(lastSessionSeenFrom(mark, undefined)).toEqual(at(5));
    expect(lastSessionSeenFrom(NO_MARK, "s1")).toBeNull();
  });

  it("what this instance recorded counts before the table has it, and not twice once it does", () => {
    const now = at(10).getTime();
    rememberSession({ userId: "u-mem", sessionId: "s1", at: at(10) }, now);
    expect(withRecent("u-mem", NO_MARK, now)).toMatchObject({ lastSessionId: "s1", lastSessionAt: at(10) });
    const stored = advance(advance(NO_MARK, { sessionId: "s0", at: at(2) }), { sessionId: "s1", at: at(10) });
    expect(withRecent("u-mem", stored, now)).toEqual(stored);
  });
});
