import path from "node:path";

/**
 * Copilot CLI's own folder: COPILOT_HOME when set (Copilot reads it in place of ~/.copilot for its
 * config, hooks, MCP servers and session state), else ~/.copilot.
 */
export function copilotHome(home: string, env: NodeJS.ProcessEnv = process.env): string {
  const own = env.COPILOT_HOME?.trim();
  return own ? path.resolve(own) : path.join(home, ".copilot");
}

/** A session id Copilot names a folder after (a UUID); anything else could point outside session-state. */
const SESSION_ID = /^[\w-]{1,200}$/;

/** Where Copilot keeps a session's events: <copilot home>/session-state/<sessionId>/events.jsonl. */
export function sessionEventsFile(home: string, sessionId: string | null, env: NodeJS.ProcessEnv = process.env): string | null {
  return sessionId && SESSION_ID.test(sessionId) ? path.join(copilotHome(home, env), "session-state", sessionId, "events.jsonl") : null;
}
