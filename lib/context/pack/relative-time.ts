/**
 * "just now", "25 min ago", "2 h ago", "3 d ago": coarse on purpose, so the same state read twice
 * within a few seconds renders the same text (and the same ETag).
 */
export function relativeTime(then: Date, now: Date): string {
  const minutes = Math.floor((now.getTime() - then.getTime()) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 60) return `${days} d ago`;
  return `on ${utcDay(then)}`;
}

/**
 * The same age, compact, for lines repeated many times in a budget (a learning): "now", "25min", "2h",
 * "3d", "5mo", "2y". A full date would cost 13 tokens a line where this costs 8 with the writer's name
 * (bench/byline-cost.ts). Coarse like relativeTime, for the same reason.
 */
export function shortAge(then: Date, now: Date): string {
  const minutes = Math.floor((now.getTime() - then.getTime()) / 60_000);
  if (minutes < 1) return "now";
  if (minutes < 60) return `${minutes}min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 60) return `${days}d`;
  return days < 730 ? `${Math.floor(days / 30)}mo` : `${Math.floor(days / 365)}y`;
}

/**
 * A learning older than this has its age marked in a context (issue 27: "this was true in March"); a
 * younger one is as current as the rest, and marking it would only cost tokens at every start.
 */
export const STALE_AFTER_DAYS = 90;

/** A learning's age when it is past STALE_AFTER_DAYS ("4mo", "2y"), else null. */
export function staleAge(then: Date, now: Date): string | null {
  return now.getTime() - then.getTime() > STALE_AFTER_DAYS * 86_400_000 ? shortAge(then, now) : null;
}

/** "2026-11-26 19:45 UTC": a moment to the minute, the same for every reader wherever they are. */
export function utcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "2026-11-26": the UTC day, for a date shown without its time. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
