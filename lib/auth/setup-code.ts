import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { isLoopbackDirect } from "./connection-security";
import { processWide } from "../process/process-state";

/**
 * The one-time code that lets someone who is not at the server's own machine do the first-run setup
 * (see setupAllowed): made at start while no user exists, printed on the server's console, kept in
 * this process's memory as a hash, and dropped once setup is done. Each instance prints its own.
 */

/** No 0/O or 1/I/L: read off a console and typed by hand. */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/** 12 characters of 31: about 59 bits, far beyond guessing over a network. */
const LENGTH = 12;

const held = processWide("setup code", (): { hash: Buffer | null } => ({ hash: null }));

const digest = (code: string) => createHash("sha256").update(normalise(code)).digest();
/** Dashes, blanks and case as typed do not matter. */
const normalise = (code: string) => code.toUpperCase().replace(/[\s-]+/g, "");

/** Makes a new code, replacing any earlier one, and answers it for the console (as XXXX-XXXX-XXXX). */
export function issueSetupCode(): string {
  const code = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  held.hash = digest(code);
  return code.match(/.{4}/g)!.join("-");
}

export function isSetupCode(code: string | undefined): boolean {
  const expected = held.hash;
  return !!expected && !!code && timingSafeEqual(digest(code), expected);
}

export function dropSetupCode(): void {
  held.hash = null;
}

/**
 * Whether this request may do the first-run setup: from the server's own machine with nobody in
 * between (isLoopbackDirect), or with the code from its console. Whoever reaches a fresh server first
 * becomes its admin, and `npm start` listens on every address.
 */
export function setupAllowed(headers: Headers, code: string | undefined): boolean {
  return isLoopbackDirect(headers) || isSetupCode(code);
}
