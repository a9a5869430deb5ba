import { note } from "../output/print";
import { readSseEvents } from "./read-sse-events";
import { requestHeaders, type McpConnection } from "./request-headers";
import { networkDetail, SIGN_IN_AGAIN } from "../http/api-client";
import { serverFetch } from "../http/server-fetch";
import { checkServerVersion, VERSION_HEADER } from "../http/version-check";

export type JsonRpcId = string | number;
export type JsonRpcMessage = Record<string, unknown>;
type JsonRpcRequest = JsonRpcMessage & { id: JsonRpcId; method: string };

export type BridgeTarget = {
  /** `{BATON_URL}/api/mcp` */
  endpoint: string;
  token: string;
  /** For the whole exchange, the answer's stream included. */
  timeoutMs: number;
  connection: McpConnection;
  /** The user's CA certificate file for an https server (caFile, BATON_CA_FILE). */
  caFile: string | null;
};

/** Why the server gave no MCP answer: the message for the agent, and facts for programs. */
export type Failure = { message: string; data: Record<string, unknown> };

export type ForwardOutcome = {
  /** Requests of the message the server never answered: the bridge answers them with an error. */
  unanswered: JsonRpcId[];
  failure: Failure | null;
  /** The client cancelled the request (notifications/cancelled): it expects no answer. */
  cancelled: boolean;
};

export const isObject = (value: unknown): value is JsonRpcMessage => typeof value === "object" && value !== null && !Array.isArray(value);
const isRequest = (m: unknown): m is JsonRpcRequest =>
  isObject(m) && typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number");
const isResponse = (m: JsonRpcMessage) => !("method" in m) && ("result" in m || "error" in m);

/** The requests in one stdin line (a message, or a 2025-03-26 batch). */
export function requestsOf(message: unknown): JsonRpcRequest[] {
  return (Array.isArray(message) ? message : [message]).filter(isRequest);
}

function networkFailure(target: BridgeTarget, error: unknown): Failure {
  const name = (error as Error)?.name;
  if (name === "TimeoutError") {
    return { message: `Baton did not answer within ${Math.round(target.timeoutMs / 1000)} s (${target.endpoint}).`, data: { reason: "timeout" } };
  }
  const detail = networkDetail(error);
  return {
    message: `Baton is not reachable at ${target.endpoint} (${detail}). Is the server running, and is BATON_URL right?`,
    data: { reason: "unreachable" },
  };
}

/** The body's JSON value; undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A refusal before any MCP handling (401, 403, 413…), worded from the API's `{ ok: false, error }` body. */
function httpFailure(status: number, text: string): Failure {
  const parsed = parseJson(text);
  const error = isObject(parsed) && isObject(parsed.error) ? parsed.error : undefined;
  const code = typeof error?.code === "string" ? error.code : undefined;
  const said = typeof error?.message === "string" ? error.message : text.trim().slice(0, 200);
  const hint = status === 401 ? ` ${SIGN_IN_AGAIN}` : "";
  const what = status === 401 ? "Baton refused the token" : "Baton refused the request";
  return { message: `${what} (HTTP ${status}${code ? ` ${code}` : ""})${said ? `: ${said}` : ""}${hint}`, data: { httpStatus: status, ...(code ? { code } : {}) } };
}

/** One JSON-RPC 2.0 message, or a non-empty batch of them, as a list; null for anything else. */
export function jsonRpcMessages(value: unknown): JsonRpcMessage[] | null {
  const list = Array.isArray(value) ? value : [value];
  return list.length > 0 && list.every((m) => isObject(m) && m.jsonrpc === "2.0") ? (list as JsonRpcMessage[]) : null;
}

/** JSON-RPC messages from a body that may hold one or an array; null when it is not JSON-RPC. */
function parseMessages(text: string): JsonRpcMessage[] | null {
  return jsonRpcMessages(parseJson(text));
}

/** One POST's requests, those still waiting for their answer, and how an answer is passed on. */
type Exchange = {
  requests: JsonRpcRequest[];
  pending: Map<string, JsonRpcRequest>;
  deliver: (message: JsonRpcMessage) => void;
};

function openExchange(target: BridgeTarget, requests: JsonRpcRequest[], emit: (message: JsonRpcMessage) => void): Exchange {
  const pending = new Map(requests.map((r) => [JSON.stringify(r.id), r]));
  const deliver = (m: JsonRpcMessage) => {
    // A server that could not read the id answers with id null; with one request in flight, it is that one's.
    if (isResponse(m) && (m.id === null || m.id === undefined) && requests.length === 1 && pending.size === 1) m = { ...m, id: requests[0]!.id };
    if (isResponse(m)) {
      const request = pending.get(JSON.stringify(m.id));
      if (!request) return emit(m);
      pending.delete(JSON.stringify(m.id));
      const result = isObject(m.result) ? m.result : undefined;
      if (request.method === "initialize" && typeof result?.protocolVersion === "string") target.connection.protocolVersion = result.protocolVersion;
    }
    emit(m);
  };
  return { requests, pending, deliver };
}

const noAnswer = (message: string): Failure => ({ message, data: { reason: "no_answer" } });

/** `failure` when a request is still unanswered, else none. */
const ifUnanswered = (exchange: Exchange, failure: Failure): Failure | null => (exchange.pending.size ? failure : null);

async function post(target: BridgeTarget, message: unknown, signal: AbortSignal): Promise<Response> {
  const res = await serverFetch(target.endpoint, {
    method: "POST",
    headers: requestHeaders(message, target.token, target.connection),
    body: JSON.stringify(message),
    signal,
    // Followed, a redirect would turn the POST into a GET or carry the token to another host.
    redirect: "manual",
  }, target);
  checkServerVersion(res.headers.get(VERSION_HEADER), target.endpoint.replace(/\/api\/mcp$/, ""), target);
  return res;
}

async function redirectFailure(target: BridgeTarget, res: Response): Promise<Failure> {
  await res.body?.cancel();
  const location = res.headers.get("location");
  return {
    message: `Baton's endpoint ${target.endpoint} redirects (HTTP ${res.status})${location ? ` to ${location}` : ""}: set BATON_URL to the server's final address.`,
    data: { httpStatus: res.status, reason: "redirect" },
  };
}

async function readRefusal(res: Response, type: string, exchange: Exchange): Promise<Failure | null> {
  const text = await res.text();
  // The MCP handler's own refusals (a malformed message, a header that disagrees with the body) are JSON-RPC already.
  const messages = type === "application/json" ? parseMessages(text) : null;
  if (!messages) return httpFailure(res.status, text);
  messages.forEach(exchange.deliver);
  return ifUnanswered(exchange, httpFailure(res.status, text));
}

async function readEventStream(body: ReadableStream<Uint8Array>, exchange: Exchange): Promise<Failure | null> {
  for await (const event of readSseEvents(body)) {
    if (event.event !== "message") continue;
    const messages = parseMessages(event.data);
    if (messages) messages.forEach(exchange.deliver);
    else note(`mcp: skipped an event that is not JSON-RPC: ${event.data.slice(0, 200)}`);
    // The server closes the stream after the last answer; a stream left open must not hold the bridge.
    if (exchange.requests.length > 0 && exchange.pending.size === 0) break;
  }
  return ifUnanswered(exchange, noAnswer("Baton ended its event stream without answering this request."));
}

async function readJsonBody(target: BridgeTarget, res: Response, type: string, exchange: Exchange): Promise<Failure | null> {
  const text = await res.text();
  if (text.trim() === "" || res.status === 202) return ifUnanswered(exchange, noAnswer(`Baton accepted the request (HTTP ${res.status}) but sent no answer.`));
  const messages = type === "application/json" ? parseMessages(text) : null;
  if (!messages) {
    return {
      message: `Baton answered with ${type || "no content type"} that is not JSON-RPC (is ${target.endpoint} a Baton server?): ${text.trim().slice(0, 120)}`,
      data: { reason: "bad_answer", httpStatus: res.status },
    };
  }
  messages.forEach(exchange.deliver);
  return ifUnanswered(exchange, noAnswer("Baton's answer did not include a response to this request."));
}

/** Whatever form the answer takes, every message in it delivered; the failure, when one is left unanswered. */
async function readAnswer(target: BridgeTarget, res: Response, exchange: Exchange): Promise<Failure | null> {
  if (exchange.requests.some((r) => r.method === "initialize") && res.ok) target.connection.sessionId = res.headers.get("mcp-session-id");
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (res.status >= 300 && res.status < 400) return redirectFailure(target, res);
  if (!res.ok) return readRefusal(res, type, exchange);
  if (type === "text/event-stream" && res.body) return readEventStream(res.body, exchange);
  return readJsonBody(target, res, type, exchange);
}

/**
 * POSTs one message (or batch) to the MCP endpoint and hands every JSON-RPC message of the answer
 * to `emit`, whether it came as a JSON body or as the `data:` of server-sent events. Never throws:
 * what went wrong comes back as a failure, with the requests that got no answer.
 */
export async function forwardMessage(
  target: BridgeTarget,
  message: unknown,
  options: { emit: (message: JsonRpcMessage) => void; signal: AbortSignal },
): Promise<ForwardOutcome> {
  const exchange = openExchange(target, requestsOf(message), options.emit);
  const outcome = (failure: Failure | null): ForwardOutcome => ({
    unanswered: [...exchange.pending.values()].map((r) => r.id),
    failure,
    cancelled: options.signal.aborted,
  });
  const limit = withinLimit(options.signal, target.timeoutMs);
  try {
    const res = await post(target, message, limit.signal);
    return outcome(await readAnswer(target, res, exchange));
  } catch (error) {
    return outcome(options.signal.aborted ? null : networkFailure(target, error));
  } finally {
    limit.done();
  }
}

/**
 * `signal` or `ms`, whichever ends first, on a timer this exchange holds. Not AbortSignal.any over
 * AbortSignal.timeout: on Node 20 the combined signal can be garbage-collected before its time limit
 * fires, and a server that never answers then held the agent's tool call for good.
 */
function withinLimit(signal: AbortSignal, ms: number): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError")), ms);
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    },
  };
}
