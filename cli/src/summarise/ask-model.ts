import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AgentSpec, EndpointSpec, SummariserAgent } from "./summariser-config";
import { HOOKS_OFF } from "../hooks/hooks-off";
import { MAX_OUTPUT, runChild } from "./run-child";

/**
 * Asking a model for the summary: the developer's own agent run non-interactively, or an
 * OpenAI-compatible endpoint. Each gives back the model's text, or what went wrong.
 */
export type Asked = { ok: true; text: string } | { ok: false; problem: string };

type AgentRun = {
  /** The executable's usual name on PATH. */
  bin: string;
  /** Its arguments for a one-shot answer from stdin, with no tools, kept nowhere; `answerFile` where it may write its last message. */
  args: (model: string | undefined, answerFile: string) => string[];
  /** The model's text in what it printed (or in `answerFile`). */
  text: (stdout: string, answerFile: string) => string;
};

/** The field of a JSON result an agent prints that holds the model's text (`claude -p`, `gemini -p` with JSON output). */
function resultField(stdout: string, field: string): string {
  const result = JSON.parse(stdout.trim()) as Record<string, unknown>;
  if (result.is_error === true) throw new Error(`the agent reported an error: ${String(result[field] ?? result.subtype ?? "").slice(0, 200)}`);
  const text = result[field];
  if (typeof text !== "string") throw new Error(`the agent's JSON output has no "${field}"`);
  return text;
}

const AGENT_RUNS: Record<SummariserAgent, AgentRun> = {
  // No tools, no MCP servers, no session kept: the transcript is all it reads.
  claude: {
    bin: "claude",
    args: (model) => ["-p", "--output-format", "json", "--tools", "", "--strict-mcp-config", "--no-session-persistence", ...(model ? ["--model", model] : [])],
    text: (stdout) => resultField(stdout, "result"),
  },
  // A read-only sandbox, nothing kept, the last message written to a file of ours.
  codex: {
    bin: "codex",
    args: (model, answerFile) => ["exec", "--skip-git-repo-check", "--ephemeral", "--sandbox", "read-only", "--color", "never", "--output-last-message", answerFile, ...(model ? ["--model", model] : []), "-"],
    text: (_stdout, answerFile) => readFileSync(answerFile, "utf8"),
  },
  // The prompt on stdin, `-p` appended to it; an empty folder of its own as the workspace.
  gemini: {
    bin: "gemini",
    args: (model) => ["--skip-trust", "--output-format", "json", ...(model ? ["--model", model] : []), "-p", "Answer now, with the JSON object only."],
    text: (stdout) => resultField(stdout, "response"),
  },
};

/** The agent asked in an empty folder of its own (no repository's instructions, nothing to edit), with Baton's hooks off. */
export async function askAgent(spec: AgentSpec, prompt: string): Promise<Asked> {
  const run = AGENT_RUNS[spec.use];
  const dir = mkdtempSync(path.join(tmpdir(), "baton-summarise-"));
  try {
    const answerFile = path.join(dir, "answer.txt");
    const result = await runChild(spec.command ?? run.bin, run.args(spec.model, answerFile), {
      input: prompt,
      cwd: dir,
      env: { ...process.env, ...HOOKS_OFF },
      limitMs: spec.timeoutMs,
    });
    if (!result.ok) return result;
    try {
      return { ok: true, text: run.text(result.stdout, answerFile) };
    } catch (error) {
      return { ok: false, problem: (error as Error).message };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An OpenAI-compatible chat completions endpoint (OpenAI, Ollama, vLLM, LM Studio …), asked for a JSON object. */
export async function askEndpoint(spec: EndpointSpec, instructions: string, session: string): Promise<Asked> {
  const key = spec.apiKeyEnv ? process.env[spec.apiKeyEnv]?.trim() : undefined;
  if (spec.apiKeyEnv && !key) return { ok: false, problem: `${spec.apiKeyEnv} (apiKeyEnv) is not set` };
  try {
    const res = await fetch(`${spec.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({
        model: spec.model,
        messages: [
          { role: "system", content: instructions },
          { role: "user", content: session },
        ],
        temperature: 0,
        response_format: { type: "json_object" },
        stream: false,
      }),
      signal: AbortSignal.timeout(spec.timeoutMs),
    });
    const text = await readUpTo(res, MAX_OUTPUT);
    if (text === null) return { ok: false, problem: `${spec.url}'s answer is over ${MAX_OUTPUT / 1024 / 1024} MB` };
    if (!res.ok) return { ok: false, problem: `${spec.url} answered ${res.status}: ${text.replace(/\s+/g, " ").slice(0, 200)}` };
    const content = (JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
    return typeof content === "string" ? { ok: true, text: content } : { ok: false, problem: `${spec.url}'s answer has no choices[0].message.content` };
  } catch (error) {
    const e = error as Error;
    return { ok: false, problem: e.name === "TimeoutError" ? `no answer from ${spec.url} within ${Math.round(spec.timeoutMs / 1000)} s` : `${spec.url}: ${e.message}` };
  }
}

/** The body as text, or null once it passes `max` bytes (the rest is not read: a worker's memory stays small). */
async function readUpTo(res: Response, max: number): Promise<string | null> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
