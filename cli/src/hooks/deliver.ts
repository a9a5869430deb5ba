import type { ProjectHints } from "../config/derive-project";
import { isModelName, type AgentName } from "../../../lib/rules";
import { answerKind, notBatonDetail, rawStart, Unreachable, type ApiCall } from "../http/api-client";
import { redactValue, SecretRedactor, type Redacted } from "../../../lib/secrets/redact-secrets";
import { hookLog } from "./hook-log";
import { writeSpool, type SpooledRequest } from "./spool";

/** A request a hook sends to the server, or spools when it cannot. */
export type Outgoing = Omit<SpooledRequest, "createdAt">;

export type Delivered = { sent: number; spooled: number; dropped: number };

/**
 * Sends each request; what cannot be sent now is spooled for the next hook run (every one without a
 * `call`, as when older requests wait in the spool and must go first). Every request is redacted once
 * more first: the texts were redacted where they came from, and this pass also covers what did not
 * come from the transcript (a summariser's output). `who` names the hook in the log; `server` is the
 * configured server's URL (null for none), which a spooled request is kept for.
 */
export async function deliver(call: ApiCall | null, outgoing: Outgoing[], options: { timeoutMs: number; who: string; server: string | null }): Promise<Delivered> {
  const counts = { sent: 0, spooled: 0, dropped: 0 };
  const requests: Redacted<Outgoing>[] = outgoing.map((request) => redactValue(new SecretRedactor(), request));
  let reachable = call !== null;
  for (const request of requests) {
    if (reachable && call) {
      try {
        const res = await call(request.method, request.path, request.body, { timeoutMs: options.timeoutMs });
        const kind = answerKind(res);
        if (kind === "sent") {
          counts.sent++;
          continue;
        }
        if (kind === "not-baton") {
          // An SSO page, a captive portal or a gateway answering for the server: nothing was delivered, nor will the rest be.
          hookLog(`${options.who}: ${res.server} did not answer as a Baton server (${notBatonDetail(res)}${rawStart(res)}); spooled`);
          reachable = false;
        } else if (kind === "refused") {
          hookLog(`${options.who}: ${request.what} refused (${res.status}): ${res.text.slice(0, 300)}`);
          counts.dropped++;
          continue;
        } else hookLog(`${options.who}: ${request.what} answered ${res.status}; spooled`);
      } catch (error) {
        if (!(error instanceof Unreachable)) throw error;
        hookLog(`${options.who}: ${error.message} Spooling.`);
        reachable = false;
      }
    }
    try {
      writeSpool(request, options.server);
      counts.spooled++;
    } catch (error) {
      // No spool (no home folder, a read-only one): this one is lost, logged; the rest are still tried.
      hookLog(`${options.who}: ${request.what} could not be sent or spooled (${(error as Error).message})`);
      counts.dropped++;
    }
  }
  return counts;
}

/** Which agent (and model, when the hook or transcript says) produced a handoff or proposal. */
export type ProducedBy = { agent: AgentName; model: string | null };

/**
 * The request fields that say it: the server keeps them with the handoff or proposal. A model name the
 * server would refuse is left out rather than have it refuse (and drop) the handoff.
 */
export const producedBy = (by: ProducedBy) => ({ agent: by.agent, ...(by.model && isModelName(by.model) ? { model: by.model } : {}) });

/**
 * A session's handoff, posted under its id (the server keeps one per session, the newest) with what
 * the hook knows of where the session runs: the server files it under the project the session's start
 * was served for, else the one the hints resolve to, and stores nothing when there is none.
 */
export function handoffRequest(markdown: string, hints: ProjectHints, sessionId: string | null, branch: string | null, by: ProducedBy): Outgoing {
  return {
    method: "POST",
    path: "/api/handoffs",
    // Its time, so one sent later from the spool is dated when it was written, not when it arrived.
    body: { markdown, ...(sessionId ? { sessionId } : {}), ...(branch ? { branch } : {}), ...hints, ...producedBy(by), writtenAt: new Date().toISOString() },
    what: `the handoff of session ${sessionId ?? "(no id)"}`,
    ...(sessionId ? { replaces: `handoff ${sessionId}` } : {}),
  };
}
