import { SecretRedactor } from "./redact-secrets";

/**
 * The server's copy of the withholding the CLI applies at home: text that arrives through REST, MCP or
 * the dashboard (an agent proposing a learning, a handoff a tool writes, task memory, a session
 * document) may carry a credential no hook ever saw. Each domain entry point passes its parsed input
 * through here once, so every way in shares it. Text already redacted by the CLI comes through as it is.
 */
export function withholdSecrets<T>(input: T): T {
  return new SecretRedactor().deep(input);
}
