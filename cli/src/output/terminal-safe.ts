import { BIDI_CONTROL_RANGES, CONTROL_RANGES } from "../../../lib/text/control-characters";

/**
 * What the CLI prints to a terminal is often a teammate's words (learnings, session documents, files a
 * document lists, names). A terminal obeys control sequences wherever they come from: `ESC ]52;…`
 * sets the reader's clipboard, `ESC [2J` clears the screen, a carriage return or a right-to-left
 * override hides what a line says. Those characters are shown as escapes instead (`\u{1b}`); line
 * breaks and tabs stay, and Windows line ends become plain ones. Only for a terminal: JSON output
 * escapes them already, and an agent reading a pipe gets the text as it is.
 */
const UNSAFE = new RegExp(String.raw`[${CONTROL_RANGES}\r${BIDI_CONTROL_RANGES}\u061C\u200E\u200F]`, "g");

export const terminalSafe = (text: string): string => text.replace(/\r\n/g, "\n").replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

/** Writes `text` to a stream, made terminal-safe when the stream is a terminal. */
export function writeText(stream: NodeJS.WriteStream, text: string): void {
  stream.write(stream.isTTY ? terminalSafe(text) : text);
}
