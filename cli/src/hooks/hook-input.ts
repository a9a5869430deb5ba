import { existsSync } from "node:fs";
import path from "node:path";
import { readStdin } from "../input/read-stdin";

/** What Claude Code sends a hook on stdin (the fields Baton reads). */
export type HookInput = {
  session_id?: unknown;
  transcript_path?: unknown;
  cwd?: unknown;
  source?: unknown;
  hook_event_name?: unknown;
  reason?: unknown;
  last_assistant_message?: unknown;
  /** UserPromptSubmit: what the user typed. */
  prompt?: unknown;
};

export type ParsedHookInput = { ok: true; input: HookInput } | { ok: false; problem: string };

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
    if (value && typeof value === "object" && !Array.isArray(value)) return { ok: true, input: value as HookInput };
    return { ok: false, problem: "the hook input on stdin is not a JSON object" };
  } catch {
    return { ok: false, problem: "the hook input on stdin is not JSON" };
  }
}

export const stringField = (value: unknown, max: number): string | null =>
  typeof value === "string" && value.trim() && value.length <= max ? value.trim() : null;

/** The longest path a hook input may name, in characters. */
export const MAX_PATH = 4096;

/** The session's directory as the input names it, when it is an absolute path that exists; else `fallback`. */
export function hookCwd(input: HookInput, fallback: string): string {
  const cwd = stringField(input.cwd, MAX_PATH);
  return cwd && path.isAbsolute(cwd) && existsSync(cwd) ? cwd : fallback;
}
