import { forwardMessage, requestsOf, type BridgeTarget, type JsonRpcId, type JsonRpcMessage } from "./forward-message";

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

const errorResponse = (id: JsonRpcId | null, code: number, message: string, data?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  error: { code, message, ...(data ? { data } : {}) },
});

const isObject = (value: unknown): value is JsonRpcMessage => typeof value === "object" && value !== null && !Array.isArray(value);

function describe(message: unknown): string {
  const first = Array.isArray(message) ? message[0] : message;
  const method = isObject(first) && typeof first.method === "string" ? first.method : "a response";
  const id = isObject(first) && first.id !== undefined ? ` (id ${JSON.stringify(first.id)})` : "";
  return Array.isArray(message) ? `a batch of ${message.length} from ${method}${id}` : `${method}${id}`;
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

  function cancel(message: unknown) {
    for (const m of Array.isArray(message) ? message : [message]) {
      if (!isObject(m) || m.method !== "notifications/cancelled" || !isObject(m.params)) continue;
      controllers.get(JSON.stringify(m.params.requestId))?.abort();
    }
  }

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
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch (error) {
        io.log(`a line on stdin is not JSON (${(error as Error).message}): ${line.slice(0, 120)}`);
        return write(errorResponse(null, -32700, `Parse error: ${(error as Error).message}`));
      }
      const list = Array.isArray(message) ? message : [message];
      if (list.length === 0 || !list.every((m) => isObject(m) && m.jsonrpc === "2.0")) {
        io.log(`a line on stdin is not a JSON-RPC 2.0 message: ${line.slice(0, 120)}`);
        return write(errorResponse(null, -32600, "Invalid Request: expected a JSON-RPC 2.0 message (or a non-empty batch of them)."));
      }
      cancel(message);
      forward(message);
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
