/** What the bridge learned from earlier answers and sends back on every later POST. */
export type McpConnection = {
  /** The version the `initialize` answer chose (2025 era: sent as MCP-Protocol-Version from then on). */
  protocolVersion: string | null;
  /** Mcp-Session-Id, should a server hand one out (Baton's is stateless and does not). */
  sessionId: string | null;
};

const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";

/** The body field each method's Mcp-Name header mirrors (SEP-2243; the server rejects a request missing it). */
const NAME_SOURCE: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** An HTTP field value as SEP-2243 encodes one: plain printable ASCII as is, anything else as `=?base64?…?=`. */
export function encodeHeaderValue(value: string): string {
  const plain =
    value.length > 0 &&
    value === value.trim() &&
    !(value.startsWith("=?base64?") && value.endsWith("?=")) &&
    [...value].every((c) => c === "\t" || (c >= " " && c <= "~"));
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/**
 * The headers of one POST to /api/mcp. No Origin: the server refuses browser pages of other sites
 * and serves agents, which send none. A 2025-era message carries the negotiated MCP-Protocol-Version
 * (from the second message on, as the Streamable HTTP transport sends it); a 2026-era request names
 * its version in `params._meta`, and the server insists that MCP-Protocol-Version, Mcp-Method and
 * Mcp-Name repeat the body, so they are derived from it as the official HTTP client derives them.
 */
export function requestHeaders(message: unknown, token: string, connection: McpConnection): Record<string, string> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  if (connection.sessionId) headers["mcp-session-id"] = connection.sessionId;
  if (connection.protocolVersion && !(isObject(message) && message.method === "initialize")) {
    headers["mcp-protocol-version"] = connection.protocolVersion;
  }
  if (!isObject(message) || typeof message.method !== "string") return headers;
  const params = isObject(message.params) ? message.params : undefined;
  const claimed = isObject(params?._meta) ? params._meta[PROTOCOL_VERSION_META_KEY] : undefined;
  if (typeof claimed !== "string") return headers;
  headers["mcp-protocol-version"] = claimed;
  headers["mcp-method"] = message.method;
  const field = Object.hasOwn(NAME_SOURCE, message.method) ? NAME_SOURCE[message.method] : undefined;
  const name = field && params ? params[field] : undefined;
  if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
  return headers;
}
