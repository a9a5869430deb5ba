import { readStdin } from "../input/read-stdin";

export type ParsedHookInput = { ok: true; input: Record<string, unknown> } | { ok: false; problem: string };

/** A hook must not wait for an input that never ends: at most this much of it is read. */
const MAX_STDIN = 4 * 1024 * 1024;

/** The hook input on stdin, read until it closes or for at most `waitMs`. */
export async function readHookInput(waitMs: number): Promise<ParsedHookInput> {
  return parseHookInput(await readStdin({ deadlineMs: waitMs, maxBytes: MAX_STDIN }));
}

/** Empty input is allowed (no hints); anything else must be a JSON object. */
export function parseHookInput(text: string): ParsedHookInput {
  if (!text.trim()) return { ok: true, input: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return { ok: true, input: value as Record<string, unknown> };
    return { ok: false, problem: "the hook input on stdin is not a JSON object" };
  } catch {
    return { ok: false, problem: "the hook input on stdin is not JSON" };
  }
}
