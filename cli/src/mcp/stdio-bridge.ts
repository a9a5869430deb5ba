import { forwardMessage, isObject, jsonRpcMessages, requestsOf, type BridgeTarget, type JsonRpcId } from "./forward-message";

export type StdioBridge = {
  /** One line of stdin: answered locally when it is not JSON-RPC, else forwarded without waiting. */
  accept(line: string): void;
  /** Resolves when every forwarded message has its answer (or its error) written. */
  settled(): Promise<void>;
  /** Stops every exchange in flight, writing nothing more for them (stdout is gone). */
  abortAll(): void;
};

/** Outside JSON-RPC's reserved range: an implementation-defined server error, as the MCP SDKs use. */
export const BRIDGE_ERROR = -32000;
/** JSON-RPC's own codes for a line that is not JSON, and for JSON that is not a JSON-RPC message. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

const errorResponse = (id: JsonRpcId | null, code: number, message: string, data?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  error: { code, message, ...(data ? { data } : {}) },
});

function describe(message: unknown): string {
  const first = Array.isArray(message) ? message[0] : message;
  const method = isObject(first) && typeof first.method === "string" ? first.method : "a response";
  const id = isObject(first) && first.id !== undefined ? ` (id ${JSON.stringify(first.id)})` : "";
  return Array.isArray(message) ? `a batch of ${message.length} from ${method}${id}` : `${method}${id}`;
}

type ErrorResponse = ReturnType<typeof errorResponse>;

/** A stdin line's JSON-RPC message (or batch), or the error that answers a line that holds none. */
function readLine(line: string, log: (message: string) => void): { message: unknown } | { refusal: ErrorResponse } {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch (error) {
    log(`a line on stdin is not JSON (${(error as Error).message}): ${line.slice(0, 120)}`);
    return { refusal: errorResponse(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`) };
  }
  if (!jsonRpcMessages(message)) {
    log(`a line on stdin is not a JSON-RPC 2.0 message: ${line.slice(0, 120)}`);
    // An id that can be read is answered under it, so a client waiting on it is not left to time out.
    const id = isObject(message) && (typeof message.id === "string" || typeof message.id === "number") ? message.id : null;
    return { refusal: errorResponse(id, INVALID_REQUEST, "Invalid Request: expected a JSON-RPC 2.0 message (or a non-empty batch of them).") };
  }
  return { message };
}

/** Aborts the exchange of each request a notifications/cancelled in `message` names. */
function cancelNamed(message: unknown, controllers: Map<string, AbortController>): void {
  for (const m of Array.isArray(message) ? message : [message]) {
    if (!isObject(m) || m.method !== "notifications/cancelled" || !isObject(m.params)) continue;
    controllers.get(JSON.stringify(m.params.requestId))?.abort();
  }
}

/**
 * The MCP stdio transport on one side (one JSON-RPC message per line), Baton's Streamable HTTP
 * endpoint on the other. The server is stateless, so every message is an independent POST and they
 * run concurrently; each answer is written as it arrives, one whole line at a time. A request always
 * gets an answer: the server's, or an error saying why there is none. A notifications/cancelled
 * aborts the POST of the request it names, which then gets no answer, as the protocol asks.
 */
export function createStdioBridge(target: BridgeTarget, io: { write: (line: string) => void; log: (message: string) => void }): StdioBridge {
  const inFlight = new Map<Promise<void>, AbortController>();
  const controllers = new Map<string, AbortController>();
  let stopped = false;
  const write = (message: unknown) => {
    if (!stopped) io.write(JSON.stringify(message));
  };

  function forward(message: unknown) {
    const controller = new AbortController();
    const keys = requestsOf(message).map((r) => JSON.stringify(r.id));
    for (const key of keys) controllers.set(key, controller);
    const exchange = forwardMessage(target, message, { emit: write, signal: controller.signal })
      .then((outcome) => {
        if (outcome.cancelled) return;
        if (outcome.failure) io.log(`${describe(message)}: ${outcome.failure.message}`);
        for (const id of outcome.unanswered) {
          const failure = outcome.failure ?? { message: "Baton sent no answer to this request.", data: { reason: "no_answer" } };
          write(errorResponse(id, BRIDGE_ERROR, failure.message, failure.data));
        }
      })
      .catch((error: unknown) => io.log(`${describe(message)}: ${(error as Error)?.stack ?? String(error)}`))
      .finally(() => {
        for (const key of keys) if (controllers.get(key) === controller) controllers.delete(key);
        inFlight.delete(exchange);
      });
    inFlight.set(exchange, controller);
  }

  return {
    accept(line) {
      if (stopped || line.trim() === "") return;
      const read = readLine(line, io.log);
      if ("refusal" in read) return write(read.refusal);
      cancelNamed(read.message, controllers);
      forward(read.message);
    },
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled(inFlight.keys());
    },
    abortAll() {
      stopped = true;
      for (const controller of inFlight.values()) controller.abort();
    },
  };
}
