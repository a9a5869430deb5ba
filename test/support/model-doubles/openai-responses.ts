import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for OpenAI's Responses API as Codex CLI speaks it (`GET /v1/models`, streamed
 * `POST /v1/responses`), for running the real Codex offline. It answers from a script: step N is the
 * answer to a request that carries N tool results, so the agent works through a fixed sequence of tool
 * calls (a patch, a failing command, a passing one) and then says its last text; requests Codex makes
 * besides (compaction) cannot shift the script. Every request is kept for the test to read.
 */

export type ResponsesStep =
  /** A function tool call (Codex 0.169: `exec_command` with `{ cmd }`). */
  | { call: string; arguments: Record<string, unknown> }
  /** A freeform tool call (Codex 0.169: `apply_patch` with the patch text). */
  | { custom: string; input: string }
  | { text: string };

export type ResponsesRequest = { path: string; body: Record<string, unknown> };

export type ResponsesDouble = {
  /** For a Codex model provider's base_url. */
  url: string;
  requests: ResponsesRequest[];
  stop: () => Promise<void>;
};

const TOOL_RESULTS = new Set(["function_call_output", "custom_tool_call_output"]);

function item(step: ResponsesStep, n: number): Record<string, unknown> {
  if ("call" in step) return { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: step.call, arguments: JSON.stringify(step.arguments), status: "completed" };
  if ("custom" in step) return { type: "custom_tool_call", id: `ctc_${n}`, call_id: `call_${n}`, name: step.custom, input: step.input, status: "completed" };
  return { type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: step.text, annotations: [] }] };
}

function stream(res: ServerResponse, output: Record<string, unknown>, n: number): void {
  const id = `resp_${n}`;
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item: output },
    { type: "response.output_item.done", output_index: 0, item: output },
    { type: "response.completed", response: { id, object: "response", status: "completed", output: [output], usage } },
  ];
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const event of events) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export async function startResponsesDouble(script: ResponsesStep[], finalText = "Done."): Promise<ResponsesDouble> {
  const requests: ResponsesRequest[] = [];
  let served = 0;
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0]!;
    const body = await readBody(req);
    if (req.method === "GET" && path.endsWith("/v1/models")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: [], models: [] }));
    } else if (req.method === "POST" && path.endsWith("/v1/responses")) {
      requests.push({ path, body });
      const input = Array.isArray(body.input) ? (body.input as { type?: unknown }[]) : [];
      const done = input.filter((i) => TOOL_RESULTS.has(String(i?.type))).length;
      stream(res, item(script[done] ?? { text: finalText }, ++served), served);
    } else {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not in the double" } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
