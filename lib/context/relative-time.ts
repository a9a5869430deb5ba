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
  return `on ${then.toISOString().slice(0, 10)}`;
}
