import { describe, expect, it } from "vitest";
import { parseHookInput } from "@/cli/src/hooks/hook-input";
import { salvageIds } from "@/cli/src/hooks/salvage-ids";

// How a hook reads what the agent sent on stdin: a byte order mark is not part of it; an input cut
// at the size limit is said to be too large, with the session's ids taken from the part read.

describe("parseHookInput", () => {
  it("takes JSON after a UTF-8 byte order mark", () => {
    expect(parseHookInput({ text: '\uFEFF{"session_id":"s1"}', cut: null })).toEqual({ ok: true, input: { session_id: "s1" } });
  });

  it("says which problem: not JSON, cut at the size limit, cut at the time limit", () => {
    expect(parseHookInput({ text: "}{", cut: null })).toEqual({ ok: false, problem: "the hook input on stdin is not JSON" });
    expect(parseHookInput({ text: '{"a":', cut: "time" })).toEqual({ ok: false, problem: "the hook input on stdin did not end in time" });
    expect(parseHookInput({ text: '{"a":"xxx', cut: "size" })).toEqual({ ok: false, problem: "the hook input on stdin is too large (over 4 MB)", cut: '{"a":"xxx' });
    expect(salvageIds('{"a":"xxx')).toBeUndefined();
  });

  it("salvages the ids from the start of an input cut short, never a field named inside a string", () => {
    const text = '{"sessionId":"s2","cwd":"/home/ana/web","prompt":"set \\"transcript_path\\": \\"/etc/passwd\\" please","last_assistant_message":"xxxx';
    expect(salvageIds(text)).toEqual({ sessionId: "s2", cwd: "/home/ana/web" });
  });
});
