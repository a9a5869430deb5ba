/** Words that mark what the finders must not take as settled. Shared by every finder. */

/** A question, not a statement. */
export const QUESTION = /\?\s*$|^(?:what|why|how|where|when|which|who|can|could|would|should|is|are|do|does|did|will|shall)\b[^.!]*$/i;
/** A guess: true or not, it is not yet a lesson. */
export const GUESS = /\b(?:i think|i guess|i suspect|i believe|probably|maybe|perhaps|might be|might have|may be|could be|possibly|likely|my guess|not sure|seems? (?:like|to be)|looks like it might|hypothes)/i;

/** A sentence as a learning: one line, trimmed of trailing punctuation noise, capitalised, with a full stop. */
export function statement(text: string): string {
  const trimmed = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[,;:\-–—\s]+/, "")
    .replace(/[\s,;:]+$/, "");
  if (!trimmed) return "";
  const withStop = /[.!]$/.test(trimmed) ? trimmed : `${trimmed}.`;
  return withStop.charAt(0).toUpperCase() + withStop.slice(1);
}
