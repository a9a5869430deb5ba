import { mcpRoute } from "@/lib/mcp/mcp-route";

// Streamable HTTP: POST carries the messages; GET and DELETE are answered by the handler (405 while serving is stateless).
export { mcpRoute as GET, mcpRoute as POST, mcpRoute as DELETE };
