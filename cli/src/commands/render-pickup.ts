import { byline, defuseLine, fenced } from "../../../lib/context/pack/fence";
import type { ListedFile } from "./read-listed-file";

export const DEFAULT_MAX_CHARS = 100_000;

/** A part of the output; `headerLines` of its text are framing, the rest is the document or file (`partial`: read only in part, its line count unknown). */
type Piece = { label: string; text: string; headerLines: number; partial?: boolean };

const withNewline = (s: string) => (s.endsWith("\n") ? s : `${s}\n`);

/** A listed path as pickup's own lines name it: whoever queued the document wrote it, so it is defused onto one line. */
const shownPath = (file: ListedFile) => defuseLine(file.path);

function fileText(file: ListedFile): string {
  const shown = shownPath(file);
  switch (file.status) {
    case "ok":
      return `\n--- ${shown} ---\n${withNewline(file.content)}`;
    case "missing":
      return `\n[Warning: File not found: ${shown}]\n`;
    case "refused":
      return `\n[Warning: Refused ${shown}: ${file.reason}]\n`;
    case "not-a-file":
      return `\n[Warning: Not a file: ${shown}]\n`;
    case "binary":
      return `\n[Warning: Binary file not shown: ${shown}]\n`;
    case "unreadable":
      return `\n[Warning: Could not read ${shown}: ${defuseLine(file.reason)}]\n`;
  }
}

const lineCount = (s: string) => s.split("\n").length - (s.endsWith("\n") ? 1 : 0);

function truncationNote(maxChars: number, cut: { label: string; shownLines: number; totalLines: number | null } | null, notShown: string[]): string {
  const parts: string[] = [];
  if (cut) parts.push(`${cut.label} cut after line ${cut.shownLines}${cut.totalLines === null ? "" : ` of ${cut.totalLines}`}`);
  if (notShown.length) {
    const listed = notShown.slice(0, 10).join(", ");
    parts.push(`not shown: ${listed}${notShown.length > 10 ? ` and ${notShown.length - 10} more` : ""}`);
  }
  return `\n[Truncated at ${maxChars} characters: ${parts.join("; ")}. Raise the limit with --max-chars.]\n`;
}

/**
 * Pickup's output, in the format agents already know from spx: the claim line, the document, then
 * each listed file under `--- path ---`. Never longer than `maxChars`: what does not fit is cut at a
 * line end and named in a closing note. Whoever queued the document wrote it (a teammate, often), so
 * it is quoted under who and when, its lines unable to forge these markers (lib/context/pack/fence.ts).
 */
export function renderPickup(input: {
  id: string;
  markdown: string;
  /** Who queued the document, by name, and when (ISO); null once that account is gone. */
  author: string | null;
  createdAt?: string;
  files: ListedFile[];
  inject: boolean;
  maxChars: number;
}): string {
  const doc = fenced("Session document", [byline(input.author), input.createdAt && `queued ${input.createdAt}`], input.markdown);
  const pieces: Piece[] = [
    { label: "the session document", text: `Session claimed: ${input.id}\n\n=== Session Content ===\n${withNewline(doc)}`, headerLines: 4 },
  ];
  if (input.inject && input.files.length) {
    pieces.push({ label: "", text: "\n=== Injected Files ===\n", headerLines: 2 });
    for (const file of input.files) pieces.push({ label: shownPath(file), text: fileText(file), headerLines: file.status === "ok" ? 2 : 0, partial: file.status === "ok" && file.partial });
  }

  const whole = pieces.map((p) => p.text).join("");
  if (whole.length <= input.maxChars) return whole;

  const labelsAfter = (i: number) => pieces.slice(i + 1).map((p) => p.label).filter(Boolean);
  const totalLines = (p: Piece) => lineCount(p.text) - p.headerLines;
  // A file read in part is longer than the whole output may be (pickup reads enough for that), so it is always cut.
  const ofLines = (p: Piece) => (p.partial ? null : totalLines(p));
  // The longest note cutting at piece i could need: room for it is kept free while pieces are added whole.
  const worstNote = (i: number) => {
    const piece = pieces[i]!;
    const cutForm = truncationNote(input.maxChars, { label: piece.label, shownLines: totalLines(piece), totalLines: totalLines(piece) }, labelsAfter(i));
    const droppedForm = truncationNote(input.maxChars, null, [piece.label, ...labelsAfter(i)].filter(Boolean));
    return Math.max(cutForm.length, droppedForm.length);
  };

  let out = "";
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const reserve = i + 1 < pieces.length ? worstNote(i + 1) : 0;
    if (out.length + piece.text.length + reserve <= input.maxChars) {
      out += piece.text;
      continue;
    }
    if (i + 1 === pieces.length && out.length + piece.text.length <= input.maxChars) return out + piece.text;
    const room = input.maxChars - out.length - worstNote(i);
    const prefix = room > 0 ? piece.text.slice(0, room) : "";
    const shown = prefix.includes("\n") ? prefix.slice(0, prefix.lastIndexOf("\n") + 1) : "";
    const shownLines = lineCount(shown) - piece.headerLines;
    const partial = shownLines > 0 && piece.label !== "" && piece.headerLines > 0;
    const note = partial
      ? truncationNote(input.maxChars, { label: piece.label, shownLines, totalLines: ofLines(piece) }, labelsAfter(i))
      : truncationNote(input.maxChars, null, [piece.label, ...labelsAfter(i)].filter(Boolean));
    out += (partial ? shown : "") + note;
    // Only a limit too small for the note itself gets here with more.
    return out.length > input.maxChars ? out.slice(0, input.maxChars) : out;
  }
  return out;
}
