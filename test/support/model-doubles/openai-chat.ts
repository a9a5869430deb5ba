import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "../model-double";

/**
 * A local stand-in for OpenAI's Chat Completions API (`POST /v1/chat/completions`, streamed or not),
 * for running agents that speak it (GitHub Copilot CLI with its own provider, opencode through
 * @ai-sdk/openai-compatible) offline. Each request gets the reply the test scripted for it (text, or
 * tool calls the agent then really runs), and every request is kept so a test can read what the agent
 * sent to the model: system prompt, injected context, tool results.
 */

/** One request the agent sent to /chat/completions, its JSON body as it came. */
/** `authorization`: the header as it came (null when none), for a test of where a key was read from. */
export type ChatRequest = { path: string; body: Record<string, unknown>; authorization?: string | null };

export type ToolCallReply = {
  name: string;
  /** The arguments; an object is sent as its JSON text, as the API does. */
  arguments: Record<string, unknown> | string;
  /** The call's id (default: call_<request>_<n>); the agent echoes it in the tool result. */
  id?: string;
};

/** What the model answers: text, tool calls, or both (text first). */
export type ChatReply = { text?: string; toolCalls?: ToolCallReply[] };

/**
 * The replies, in the order requests arrive (the last one repeats once the list runs out), or a
 * function of the request and its index (0-based, counting chat requests only) for agents that send
 * side requests (a title, a summary) a test must tell apart from the conversation.
 */
export type ChatScript = ChatReply[] | ((request: ChatRequest, index: number) => ChatReply);

export type OpenAiChatDouble = {
  /** The API's base URL, ending in /v1 (for COPILOT_PROVIDER_BASE_URL, an openai-compatible baseURL). */
  url: string;
  /** The chat requests received so far. */
  requests: ChatRequest[];
  stop: () => Promise<void>;
};

const DEFAULT_REPLY: ChatReply = { text: "Done." };
const MODELS = ["gpt-4.1", "gpt-4o", "gpt-5"];

/** The request's messages as text, one string each (string content or the text of its parts). */
export function messageTexts(request: ChatRequest): string[] {
  const messages = Array.isArray(request.body.messages) ? (request.body.messages as Record<string, unknown>[]) : [];
  return messages.map((message) => {
    const content = message.content;
    if (typeof content === "string") return content;
    if (Array.isArray(content)) return content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("\n");
    return "";
  });
}

/** Everything the request says to the model, as one string (to search for injected context). */
export const requestText = (request: ChatRequest): string => messageTexts(request).join("\n");

/** How many tool results the conversation carries so far (the agent's answers to scripted calls). */
export function toolResultCount(request: ChatRequest): number {
  const messages = Array.isArray(request.body.messages) ? (request.body.messages as Record<string, unknown>[]) : [];
  return messages.filter((message) => message.role === "tool").length;
}

function pick(script: ChatScript, request: ChatRequest, index: number): ChatReply {
  if (typeof script === "function") return script(request, index);
  return script[Math.min(index, script.length - 1)] ?? DEFAULT_REPLY;
}

function toolCalls(reply: ChatReply, index: number) {
  return (reply.toolCalls ?? []).map((call, n) => ({
    id: call.id ?? `call_${index}_${n}`,
    type: "function" as const,
    function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments) },
  }));
}

const USAGE = { prompt_tokens: 10, completion_tokens: 6, total_tokens: 16 };

function completion(reply: ChatReply, index: number, model: string) {
  const calls = toolCalls(reply, index);
  return {
    id: `chatcmpl-double-${index}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: reply.text ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
        finish_reason: calls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: USAGE,
  };
}

/** The same reply as the API streams it: role, text, each tool call (name, then its arguments), finish, usage, [DONE]. */
function streamed(res: ServerResponse, reply: ChatReply, index: number, model: string, withUsage: boolean): void {
  const base = { id: `chatcmpl-double-${index}`, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const calls = toolCalls(reply, index);
  const chunks: unknown[] = [chunk({ role: "assistant", content: "" })];
  if (reply.text) chunks.push(chunk({ content: reply.text }));
  calls.forEach((call, n) => {
    chunks.push(chunk({ tool_calls: [{ index: n, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }));
    chunks.push(chunk({ tool_calls: [{ index: n, function: { arguments: call.function.arguments } }] }));
  });
  chunks.push(chunk({}, calls.length > 0 ? "tool_calls" : "stop"));
  if (withUsage) chunks.push({ ...base, choices: [], usage: USAGE });
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const data of chunks) res.write(`data: ${JSON.stringify(data)}\n\n`);
  res.end("data: [DONE]\n\n");
}

export async function startOpenAiChatDouble(script: ChatScript = [DEFAULT_REPLY]): Promise<OpenAiChatDouble> {
  const requests: ChatRequest[] = [];
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0]!;
    const body = await readBody(req);
    if (req.method === "POST" && path.endsWith("/chat/completions")) {
      const request = { path, body, authorization: req.headers.authorization ?? null };
      const index = requests.push(request) - 1;
      const reply = pick(script, request, index);
      const model = typeof body.model === "string" ? body.model : "gpt-4.1";
      const options = body.stream_options as { include_usage?: unknown } | undefined;
      if (body.stream === true) streamed(res, reply, index, model, options?.include_usage === true);
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completion(reply, index, model)));
    } else if (req.method === "GET" && path.endsWith("/models")) {
      const data = MODELS.map((id) => ({ id, object: "model", created: 0, owned_by: "double" }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data }));
    } else {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `not in the double: ${req.method} ${path}`, type: "not_found" } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
