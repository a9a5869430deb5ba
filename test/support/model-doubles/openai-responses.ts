import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "../model-double";

/**
 * A local stand-in for OpenAI's Responses API as Codex CLI speaks it (`GET /v1/models`, streamed
 * `POST /v1/responses`), for running the real Codex offline. It answers from a script, one step a
 * request, so the agent works through a fixed sequence of tool calls (a patch, a failing command, a
 * passing one) and then says its last text; Codex's compaction requests get a summary and do not
 * shift the script. Every request is kept for the test to read.
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
  /** Starts the script over with these steps (the next session's). */
  script: (steps: ResponsesStep[]) => void;
  /** The tokens each answer says the request used: above Codex's auto-compact limit, it compacts. */
  tokensPerAnswer: number;
  stop: () => Promise<void>;
};

/** How Codex's compaction prompt begins (0.169). */
const COMPACTION = "You are performing a CONTEXT CHECKPOINT COMPACTION";

function item(step: ResponsesStep, n: number): Record<string, unknown> {
  if ("call" in step) return { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: step.call, arguments: JSON.stringify(step.arguments), status: "completed" };
  if ("custom" in step) return { type: "custom_tool_call", id: `ctc_${n}`, call_id: `call_${n}`, name: step.custom, input: step.input, status: "completed" };
  return { type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: step.text, annotations: [] }] };
}

function stream(res: ServerResponse, output: Record<string, unknown>, n: number, tokens: number): void {
  const id = `resp_${n}`;
  const usage = { input_tokens: tokens - 5, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: tokens };
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

export async function startResponsesDouble(steps: ResponsesStep[], finalText = "Done."): Promise<ResponsesDouble> {
  const requests: ResponsesRequest[] = [];
  let script = steps;
  let next = 0;
  let served = 0;
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0]!;
    const body = await readBody(req);
    if (req.method === "GET" && path.endsWith("/v1/models")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: [], models: [] }));
    } else if (req.method === "POST" && path.endsWith("/v1/responses")) {
      requests.push({ path, body });
      const compaction = JSON.stringify(body.input ?? "").includes(COMPACTION);
      const step = compaction ? { text: "Summary: the session so far." } : (script[next++] ?? { text: finalText });
      stream(res, item(step, ++served), served, double.tokensPerAnswer);
    } else {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not in the double" } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const double: ResponsesDouble = {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (steps) => {
      script = steps;
      next = 0;
    },
    tokensPerAnswer: 15,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return double;
}
