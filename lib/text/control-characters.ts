/**
 * Characters a terminal obeys rather than shows, as regular-expression class ranges: the C0 controls but
 * tab and line ends, DEL and the C1 controls (ESC ]52 sets the clipboard, ESC [2J clears the screen), and
 * the bidirectional embeddings, overrides and isolates that show a line in another order than it is read.
 * The fence drops them from team-written text (lib/context/pack/fence.ts); the CLI shows them as escapes
 * at a terminal (cli/src/output/terminal-safe.ts). No imports: both bundles carry it.
 */
export const CONTROL_RANGES = "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F";
export const BIDI_CONTROL_RANGES = "\\u202A-\\u202E\\u2066-\\u2069";
