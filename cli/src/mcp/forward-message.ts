import { note } from "../output/print";
import { readSseEvents } from "./read-sse-events";
import { requestHeaders, type McpConnection } from "./request-headers";

export type JsonRpcId = string | number;
export type JsonRpcMessage = Record<string, unknown>;

export type BridgeTarget = {
  /** `{BATON_URL}/api/mcp` */
  endpoint: string;
  token: string;
  /** For the whole exchange, the answer's stream included. */
  timeoutMs: number;
  connection: McpConnection;
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

const isObject = (value: unknown): value is JsonRpcMessage => typeof value === "object" && value !== null && !Array.isArray(value);
const isRequest = (m: unknown): m is JsonRpcMessage & { id: JsonRpcId; method: string } =>
  isObject(m) && typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number");
const isResponse = (m: JsonRpcMessage) => !("method" in m) && ("result" in m || "error" in m);

/** The requests in one stdin line (a message, or a 2025-03-26 batch). */
export function requestsOf(message: unknown): (JsonRpcMessage & { id: JsonRpcId; method: string })[] {
  return (Array.isArray(message) ? message : [message]).filter(isRequest);
}

function networkFailure(target: BridgeTarget, error: unknown): Failure {
  const name = (error as Error)?.name;
  if (name === "TimeoutError") {
    return { message: `Baton did not answer within ${Math.round(target.timeoutMs / 1000)} s (${target.endpoint}).`, data: { reason: "timeout" } };
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
  return {
    message: `Baton is not reachable at ${target.endpoint} (${detail}). Is the server running, and is BATON_URL right?`,
    data: { reason: "unreachable" },
  };
}

/** A refusal before any MCP handling (401, 403, 413…), worded from the API's `{ ok: false, error }` body. */
function httpFailure(status: number, text: string): Failure {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = isObject(parsed) && isObject(parsed.error) ? parsed.error : undefined;
  const code = typeof error?.code === "string" ? error.code : undefined;
  const said = typeof error?.message === "string" ? error.message : text.trim().slice(0, 200);
  const hint = status === 401 ? " Check BATON_TOKEN (or token in ~/.config/baton/config.json)." : "";
  const what = status === 401 ? "Baton refused the token" : "Baton refused the request";
  return { message: `${what} (HTTP ${status}${code ? ` ${code}` : ""})${said ? `: ${said}` : ""}${hint}`, data: { httpStatus: status, ...(code ? { code } : {}) } };
}

/** JSON-RPC messages from a body that may hold one or an array; null when it is not JSON-RPC. */
function parseMessages(text: string): JsonRpcMessage[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.length > 0 && list.every((m) => isObject(m) && m.jsonrpc === "2.0") ? (list as JsonRpcMessage[]) : null;
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
  const requests = requestsOf(message);
  const pending = new Map(requests.map((r) => [JSON.stringify(r.id), r]));
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(target.timeoutMs)]);
  const outcome = (failure: Failure | null): ForwardOutcome => ({
    unanswered: [...pending.values()].map((r) => r.id),
    failure,
    cancelled: options.signal.aborted,
  });

  const deliver = (m: JsonRpcMessage) => {
    // A server that could not read the id answers with id null; with one request in flight, it is that one's.
    if (isResponse(m) && (m.id === null || m.id === undefined) && requests.length === 1 && pending.size === 1) m = { ...m, id: requests[0]!.id };
    if (isResponse(m)) {
      const request = pending.get(JSON.stringify(m.id));
      if (!request) return options.emit(m);
      pending.delete(JSON.stringify(m.id));
      const result = isObject(m.result) ? m.result : undefined;
      if (request.method === "initialize" && typeof result?.protocolVersion === "string") target.connection.protocolVersion = result.protocolVersion;
    }
    options.emit(m);
  };

  let res: Response;
  try {
    res = await fetch(target.endpoint, {
      method: "POST",
      headers: requestHeaders(message, target.token, target.connection),
      body: JSON.stringify(message),
      signal,
      // Followed, a redirect would turn the POST into a GET or carry the token to another host.
      redirect: "manual",
    });
  } catch (error) {
    return outcome(options.signal.aborted ? null : networkFailure(target, error));
  }

  try {
    if (requests.some((r) => r.method === "initialize") && res.ok) target.connection.sessionId = res.headers.get("mcp-session-id");
    const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      const location = res.headers.get("location");
      return outcome({
        message: `Baton's endpoint ${target.endpoint} redirects (HTTP ${res.status})${location ? ` to ${location}` : ""}: set BATON_URL to the server's final address.`,
        data: { httpStatus: res.status, reason: "redirect" },
      });
    }
    if (!res.ok) {
      const text = await res.text();
      // The MCP handler's own refusals (a malformed message, a header that disagrees with the body) are JSON-RPC already.
      const messages = type === "application/json" ? parseMessages(text) : null;
      if (messages) {
        messages.forEach(deliver);
        return outcome(pending.size ? httpFailure(res.status, text) : null);
      }
      return outcome(httpFailure(res.status, text));
    }
    if (type === "text/event-stream" && res.body) {
      for await (const event of readSseEvents(res.body)) {
        if (event.event !== "message") continue;
        const messages = parseMessages(event.data);
        if (messages) messages.forEach(deliver);
        else note(`mcp: skipped an event that is not JSON-RPC: ${event.data.slice(0, 200)}`);
        // The server closes the stream after the last answer; a stream left open must not hold the bridge.
        if (requests.length > 0 && pending.size === 0) break;
      }
      return outcome(pending.size ? { message: "Baton ended its event stream without answering this request.", data: { reason: "no_answer" } } : null);
    }
    const text = await res.text();
    if (text.trim() === "" || res.status === 202) {
      return outcome(pending.size ? { message: `Baton accepted the request (HTTP ${res.status}) but sent no answer.`, data: { reason: "no_answer" } } : null);
    }
    const messages = type === "application/json" ? parseMessages(text) : null;
    if (!messages) {
      return outcome({
        message: `Baton answered with ${type || "no content type"} that is not JSON-RPC (is ${target.endpoint} a Baton server?): ${text.trim().slice(0, 120)}`,
        data: { reason: "bad_answer", httpStatus: res.status },
      });
    }
    messages.forEach(deliver);
    return outcome(pending.size ? { message: "Baton's answer did not include a response to this request.", data: { reason: "no_answer" } } : null);
  } catch (error) {
    return outcome(options.signal.aborted ? null : networkFailure(target, error));
  }
}
