import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "../model-double";

// A local stand-in for OpenAI's Chat Completions API (POST /v1/chat/completions, streamed or not), for
// running agents that speak it (opencode through @ai-sdk/openai-compatible, Copilot CLI) offline: each
// request gets the next scripted reply (text, or tool calls the agent then runs), and every request is
// kept so that a test can read what the agent sent to the model (system prompt, context, tool results).

export type ChatToolCall = { name: string; arguments: Record<string, unknown> };
export type ChatReply = { text: string } | { toolCalls: ChatToolCall[] };
export type ChatRequest = { path: string; body: Record<string, unknown> };

export type OpenAiChatDouble = {
  /** For the provider's base URL (…/v1). */
  url: string;
  requests: ChatRequest[];
  stop: () => Promise<void>;
};

export type ChatScript = {
  /** The replies, in order, to the requests `answers` does not take. */
  replies: ChatReply[];
  /** Said when the script has run out. */
  after?: string;
  /** A reply outside the script (e.g. to an agent's title request), or null to take the script's next. */
  answers?: (body: Record<string, unknown>) => ChatReply | null;
};

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function toolCalls(reply: { toolCalls: ChatToolCall[] }, n: number) {
  return reply.toolCalls.map((call, i) => ({ id: `call_${n}_${i}`, type: "function", function: { name: call.name, arguments: JSON.stringify(call.arguments) } }));
}

function streamed(res: ServerResponse, reply: ChatReply, model: unknown, n: number): void {
  const id = `chatcmpl-double-${n}`;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1, model, choices, ...extra })}\n\n`);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]);
  if ("text" in reply) chunk([{ index: 0, delta: { content: reply.text }, finish_reason: null }]);
  else toolCalls(reply, n).forEach((call, index) => chunk([{ index: 0, delta: { tool_calls: [{ index, ...call }] }, finish_reason: null }]));
  chunk([{ index: 0, delta: {}, finish_reason: "text" in reply ? "stop" : "tool_calls" }]);
  chunk([], { usage: USAGE });
  res.end("data: [DONE]\n\n");
}

function whole(res: ServerResponse, reply: ChatReply, model: unknown, n: number): void {
  const message = "text" in reply ? { role: "assistant", content: reply.text } : { role: "assistant", content: null, tool_calls: toolCalls(reply, n) };
  const finish = "text" in reply ? "stop" : "tool_calls";
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ id: `chatcmpl-double-${n}`, object: "chat.completion", created: 1, model, choices: [{ index: 0, message, finish_reason: finish }], usage: USAGE }));
}

export async function startOpenAiChatDouble(script: ChatScript): Promise<OpenAiChatDouble> {
  const requests: ChatRequest[] = [];
  let next = 0;
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0]!;
    const body = await readBody(req);
    if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not in the double", type: "not_found" } }));
      return;
    }
    requests.push({ path, body });
    const reply = script.answers?.(body) ?? script.replies[next++] ?? { text: script.after ?? "Done." };
    (body.stream === true ? streamed : whole)(res, reply, body.model ?? "double", requests.length);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
