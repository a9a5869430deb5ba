/** What Claude Code sends a hook on stdin (the fields Baton reads). */
export type HookInput = {
  session_id?: unknown;
  transcript_path?: unknown;
  cwd?: unknown;
  source?: unknown;
  hook_event_name?: unknown;
  reason?: unknown;
  last_assistant_message?: unknown;
};

export type ParsedHookInput = { ok: true; input: HookInput } | { ok: false; problem: string };

const MAX_STDIN = 4 * 1024 * 1024;

/**
 * Reads stdin until it closes, at most `waitMs` and 4 MB: a hook must not wait for an input that
 * never ends. A terminal (someone trying the hook by hand) counts as no input.
 */
export function readStdin(waitMs: number): Promise<string> {
  const stdin = process.stdin;
  if (stdin.isTTY) return Promise.resolve("");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stdin.removeAllListeners("data");
      stdin.pause();
      stdin.unref?.();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const timer = setTimeout(done, waitMs);
    stdin.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_STDIN) return done();
      chunks.push(chunk);
    });
    stdin.once("end", done);
    stdin.once("error", done);
  });
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
