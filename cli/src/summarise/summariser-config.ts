import { z } from "zod";

/**
 * The summariser a developer set in their own configuration (`summariser` in ~/.config/baton/config.json,
 * or BATON_SUMMARISER; never a repository's file: cloning a repository must not make the hooks run
 * something or send a transcript elsewhere). Off when absent. Read by the session-end worker only,
 * so zod is no cost to the hooks that run at every prompt.
 *
 * - `"claude"`, `"codex"` or `"gemini"`: ask that agent non-interactively (`claude -p`, `codex exec`,
 *   `gemini -p`) with the developer's own sign-in.
 * - `{ "use": "claude" | "codex" | "gemini", "model"?, "command"?, "timeoutMs"? }`: the same, with a model,
 *   the agent's executable when it is not on PATH as its usual name, and a time limit.
 * - `{ "use": "openai", "url": "http://localhost:11434/v1", "model": "llama3.1", "apiKeyEnv"?, "timeoutMs"? }`:
 *   any OpenAI-compatible chat completions endpoint (a local Ollama included); the key, when one is
 *   needed, is read from the environment variable named, never from the file.
 * - Any other text: a shell command given the transcript's path that prints the handoff as markdown
 *   (the summariser before there were built-in ones; it proposes no lessons).
 */

export const SUMMARISER_AGENTS = ["claude", "codex", "gemini"] as const;
export type SummariserAgent = (typeof SUMMARISER_AGENTS)[number];

export const DEFAULT_SUMMARISER_MS = 90_000;
const MIN_MS = 5_000;
const MAX_MS = 600_000;

const timeoutMs = z.number().int().min(MIN_MS).max(MAX_MS).default(DEFAULT_SUMMARISER_MS);
const model = z.string().trim().min(1).max(200).regex(/^[\w.:/@+-]+$/, "a model name: letters, digits and . : / @ + - _").optional();

const AgentSummariser = z.strictObject({
  use: z.enum(SUMMARISER_AGENTS),
  model,
  command: z.string().trim().min(1).optional(),
  timeoutMs,
});

const EndpointSummariser = z.strictObject({
  use: z.literal("openai"),
  url: z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, "")),
  model: z.string().trim().min(1).max(200),
  apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable's name").optional(),
  timeoutMs,
});

export type AgentSpec = z.infer<typeof AgentSummariser>;
export type EndpointSpec = z.infer<typeof EndpointSummariser>;
export type SummariserSpec = AgentSpec | EndpointSpec | { use: "command"; command: string };

const Setting = z.discriminatedUnion("use", [AgentSummariser, EndpointSummariser]);

/** The summariser configured, null when none, or what is wrong with the setting. */
export function parseSummariser(value: unknown): { ok: true; spec: SummariserSpec | null } | { ok: false; problem: string } {
  if (value === undefined || value === null || value === false) return { ok: true, spec: null };
  if (typeof value === "string") {
    const text = value.trim();
    if (!text) return { ok: true, spec: null };
    if (text.startsWith("{")) {
      try {
        return parseSummariser(JSON.parse(text) as unknown);
      } catch (error) {
        return { ok: false, problem: `not valid JSON: ${(error as Error).message}` };
      }
    }
    if ((SUMMARISER_AGENTS as readonly string[]).includes(text)) return { ok: true, spec: AgentSummariser.parse({ use: text }) };
    return { ok: true, spec: { use: "command", command: text } };
  }
  const parsed = Setting.safeParse(value);
  if (parsed.success) return { ok: true, spec: parsed.data };
  return { ok: false, problem: parsed.error.issues.map((i) => `${i.path.join(".") || "summariser"}: ${i.message}`).join("; ") };
}

/** How people read the setting: in `baton doctor` and the handoff's first line. */
export function describeSummariser(spec: SummariserSpec): string {
  if (spec.use === "command") return `the command \`${spec.command}\``;
  const what = spec.use === "openai" ? `${spec.url} (${spec.model})` : `${spec.use}${spec.model ? ` (${spec.model})` : ""}`;
  return `${what}, at most ${Math.round(spec.timeoutMs / 1000)} s`;
}
