import { readStdinWithin, type StdinRead } from "../input/read-stdin";

/**
 * The hook input, or why there is none. An input over MAX_STDIN (a huge last message on a Stop hook)
 * carries the part read (`cut`): session-end salvages the session's ids from it (salvage-ids.ts).
 */
export type ParsedHookInput = { ok: true; input: Record<string, unknown> } | { ok: false; problem: string; cut?: string };

/** A hook must not wait for an input that never ends: at most this much of it is read. */
const MAX_STDIN = 4 * 1024 * 1024;

/** The hook input on stdin, read until it closes or for at most `waitMs`. */
export async function readHookInput(waitMs: number): Promise<ParsedHookInput> {
  return parseHookInput(await readStdinWithin({ deadlineMs: waitMs, maxBytes: MAX_STDIN }));
}

/** Empty input is allowed (no hints); anything else must be a JSON object. A leading byte order mark (U+FEFF) is not part of it. */
export function parseHookInput({ text: raw, cut }: StdinRead): ParsedHookInput {
  const text = raw.replace(/^\uFEFF/, "");
  if (!text.trim()) return { ok: true, input: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return { ok: true, input: value as Record<string, unknown> };
    return { ok: false, problem: "the hook input on stdin is not a JSON object" };
  } catch {
    if (cut === "size") return { ok: false, problem: `the hook input on stdin is too large (over ${MAX_STDIN / 1024 / 1024} MB)`, cut: text };
    if (cut === "time") return { ok: false, problem: "the hook input on stdin did not end in time" };
    return { ok: false, problem: "the hook input on stdin is not JSON" };
  }
}
