import { processWide } from "../process/process-state";
import { isDatabaseUnavailable } from "./database-unavailable";

// The dashboard's pages while the database is out of reach. A page cannot answer 503 once it renders
// (Next.js sends a bare 500 shell), so the proxy answers for it: a failure that meant "database
// unavailable" (in the API, an action or a page) marks an outage, and while one is marked, page
// requests ask the database again (at most once a second, shared) and get a 503 page until it answers.
// No database code here: the proxy imports this file, startup hands it the probe.

/** How often, at most, the database is asked again during an outage. */
const PROBE_EVERY_MS = 1_000;

type Outage = { since: number; probe: (() => Promise<boolean>) | null; checkedAt: number; checking: Promise<boolean> | null };
const outage = processWide("database outage", (): Outage => ({ since: 0, probe: null, checkedAt: 0, checking: null }));

/** Startup's way to ask whether the database answers now (lib/db/client.ts databaseReachable). */
export function setReachabilityProbe(probe: () => Promise<boolean>): void {
  outage.probe = probe;
}

/** Marks an outage: a failure just said the database could not be reached. */
export function noteOutage(): void {
  outage.since ||= Date.now();
}

/** Marks an outage when `error` says the database could not be reached; anything else is ignored. */
export function noteIfUnavailable(error: unknown): void {
  if (isDatabaseUnavailable(error)) noteOutage();
}

/** Whether a page should be answered 503 now: an outage is marked and the database still does not answer. */
export async function databaseDown(now = Date.now()): Promise<boolean> {
  if (!outage.since || !outage.probe) return false;
  if (!outage.checking && now - outage.checkedAt >= PROBE_EVERY_MS) {
    outage.checkedAt = now;
    outage.checking = outage.probe().finally(() => (outage.checking = null));
  }
  if (!outage.checking) return true;
  if (!(await outage.checking)) return true;
  outage.since = 0;
  return false;
}
