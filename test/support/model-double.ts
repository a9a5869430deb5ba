import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request Claude Code sent to the model API, its JSON body as it came. */
export type ModelRequest = { path: string; body: Record<string, unknown> };

export type ModelDouble = {
  /** For ANTHROPIC_BASE_URL. */
  url: string;
  /** The Messages API requests received so far (count_tokens and other paths are answered, not kept). */
  requests: ModelRequest[];
  stop: () => Promise<void>;
};

const REPLY = "Hello from the model double.";

/** What the double answers: text, or a call of one of the tools the request offers (`tool_use`). */
export type Reply = string | { tool: { name: string; input: Record<string, unknown> } };

const toolUseId = "toolu_double_1";

function message(model: unknown, reply: Reply) {
  const tool = typeof reply === "string" ? null : reply.tool;
  return {
    id: "msg_double",
    type: "message",
    role: "assistant",
    model: typeof model === "string" ? model : "claude-double",
    content: tool ? [{ type: "tool_use", id: toolUseId, name: tool.name, input: tool.input }] : [{ type: "text", text: reply as string }],
    stop_reason: tool ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 6 },
  };
}

/** The same answer as the Messages API streams it (server-sent events). */
function streamed(res: ServerResponse, model: unknown, reply: Reply): void {
  const { content, stop_reason, ...start } = message(model, reply);
  const [opened, delta] =
    typeof reply === "string"
      ? [{ type: "text", text: "" }, { type: "text_delta", text: reply }]
      : [{ ...content[0]!, input: {} }, { type: "input_json_delta", partial_json: JSON.stringify(reply.tool.input) }];
  const events: [string, unknown][] = [
    ["message_start", { type: "message_start", message: { ...start, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: opened }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 6 } }],
    ["message_stop", { type: "message_stop" }],
  ];
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

/** A request's JSON body ({} when it is not JSON); the model doubles of the other agents read theirs the same way. */
export async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * A local stand-in for Anthropic's Messages API, for running the real Claude Code offline: every
 * message gets a short text answer or a tool call (`reply`'s for the request, streamed when asked), and every request
 * is kept so a test can read what Claude Code would have sent to the model (system prompt, context, tools).
 */
export async function startModelDouble(reply: (request: ModelRequest) => Reply = () => REPLY): Promise<ModelDouble> {
  const requests: ModelRequest[] = [];
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0]!;
    const body = await readBody(req);
    if (req.method === "POST" && path.endsWith("/v1/messages/count_tokens")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ input_tokens: 10 }));
    } else if (req.method === "POST" && path.endsWith("/v1/messages")) {
      const request = { path, body };
      requests.push(request);
      const answer = reply(request);
      if (body.stream === true) streamed(res, body.model, answer);
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(message(body.model, answer)));
    } else {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "not in the double" } }));
    }
  });
  return listening(server, requests);
}

/** A model double's server listening on a free local port, with the requests it keeps; every agent's double ends so. */
export async function listening<R>(server: Server, requests: R[]): Promise<{ url: string; requests: R[]; stop: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

