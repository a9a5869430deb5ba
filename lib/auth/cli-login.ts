import "server-only";
import { randomBytes, randomInt } from "node:crypto";
import { z } from "zod";
import { ApiError } from "../api/errors";
import type { Db, DbOrTx } from "../db/client";
import {
  approvedTokenOf,
  collectCliLogin,
  decideCliLogin,
  deleteCliLoginsExpiredBefore,
  findCliLoginByDeviceCode,
  findCliLoginByUserCode,
  insertCliLogin,
  markCliLoginPolled,
  type CliLoginRow,
} from "../db/queries/cli-logins";
import { getUser } from "../db/queries/users";
import { createApiToken, hashToken, newTokenSchema, ownProjectIds } from "./api-tokens";
import type { Principal } from "./principal";
import { clientKey, FailureWindow } from "./sign-in-limiter";
import { processWide } from "../process/process-state";

// `baton login`, device authorisation as RFC 8628 has it (and `gh auth login` does it): the CLI asks
// for a code pair, shows the short code and a URL, and polls with the long one; the person, signed in to
// the dashboard, approves the code there and chooses the token. The browser never holds the token and
// the terminal never holds a password, so it works over SSH. The token is made when the CLI collects
// it, so no secret waits in the database: only hashes and the token's settings.

/** How long a code waits for its answer: time to open a browser and sign in, not a standing invitation. */
export const CLI_LOGIN_TTL_MS = 10 * 60_000;
/**
 * Seconds the CLI waits between polls. RFC 8628 defaults to 5; a poll is one indexed read, and a
 * terminal that sits 5 s after the person clicked Approve looks broken.
 */
export const CLI_LOGIN_INTERVAL_SECONDS = 2;
/** A poll this much early is a clock or network wobble, not a CLI asking too fast. */
const POLL_SLACK_MS = 500;
/** Expired codes are kept this long, so a late poll hears "expired" rather than "no such code". */
const KEEP_EXPIRED_MS = 60 * 60_000;
/**
 * RFC 8628 §6.1's alphabet: no vowels (no words spelled by chance), no digits (no 0/O, 1/I). Eight of
 * them are 20^8 ≈ 2.6·10^10 codes, against a handful pending at once and a few guesses allowed.
 */
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const USER_CODE_LENGTH = 8;
/** New codes one address may ask for in the window: a team behind one NAT logs in a few times. */
const MAX_CODES_PER_CLIENT = 20;
/** Codes a signed-in person may type that match nothing, in the window. */
const MAX_UNKNOWN_CODES = 10;
const LIMIT_WINDOW_MS = 15 * 60_000;
/** User codes drawn before giving up: with a few pending among 2.6·10^10, a second draw is already rare. */
const DRAWS = 5;

const limits = processWide("cli login limits", () => ({
  starts: new FailureWindow(MAX_CODES_PER_CLIENT, LIMIT_WINDOW_MS),
  unknownCodes: new FailureWindow(MAX_UNKNOWN_CODES, LIMIT_WINDOW_MS),
}));

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

/** A user code as typed (any case, dashes, spaces) as stored, or null when it cannot be one. */
export function normaliseUserCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, "");
  return code.length === USER_CODE_LENGTH && [...code].every((c) => USER_CODE_ALPHABET.includes(c)) ? code : null;
}

/** ABCDEFGH → ABCD-EFGH: two halves a person reads and types without losing their place. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, USER_CODE_LENGTH / 2)}-${code.slice(USER_CODE_LENGTH / 2)}`;
}

function drawUserCode(): string {
  return Array.from({ length: USER_CODE_LENGTH }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join("");
}

/** Control characters would let a host name rewrite the approval page's line about it. */
const printable = (text: string) => text.replace(/[\p{Cc}\p{Cf}]/gu, "").trim();

const startCliLoginSchema = z
  .object({ machine: z.string().max(200).transform(printable).pipe(z.string().max(100)).optional() })
  .optional()
  .transform((body) => ({ machine: body?.machine || "an unnamed machine" }));

export type CliLoginStarted = {
  userCode: string;
  deviceCode: string;
  verificationUrl: string;
  verificationUrlComplete: string;
  expiresIn: number;
  interval: number;
};

/** The dashboard page where a code is approved; `code` fills it in. */
export function verificationUrl(origin: string, code?: string): string {
  const url = `${origin.replace(/\/+$/, "")}/connect/device`;
  return code ? `${url}?code=${code}` : url;
}

/** A new code pair for a CLI at `address` (refused past the per-address limit). */
export async function startCliLogin(
  db: Db,
  params: { input: unknown; address: string; origin: string; now?: Date },
): Promise<CliLoginStarted> {
  const now = params.now ?? new Date();
  const { machine } = startCliLoginSchema.parse(params.input);
  // Counted as failed sign-ins are: an IPv6 client by its /64, which it holds whole.
  const client = clientKey(params.address);
  const wait = limits.starts.retryAfter(client, now.getTime());
  if (wait > 0) throw new ApiError("rate_limited", `Too many sign-in codes from this address; try again in ${minutes(wait)} min.`, undefined, { headers: { "retry-after": String(Math.ceil(wait / 1000)) } });
  limits.starts.record(client, now.getTime());
  await deleteCliLoginsExpiredBefore(db, { before: new Date(now.getTime() - KEEP_EXPIRED_MS) });
  const deviceCode = randomBytes(32).toString("base64url");
  const deviceCodeHash = await hashToken(deviceCode);
  const expiresAt = new Date(now.getTime() + CLI_LOGIN_TTL_MS);
  for (let draw = 0; draw < DRAWS; draw++) {
    const userCode = drawUserCode();
    if (await insertCliLogin(db, { id: crypto.randomUUID(), deviceCodeHash, userCode, machine, address: params.address, expiresAt })) {
      const shown = formatUserCode(userCode);
      return {
        userCode: shown,
        deviceCode,
        verificationUrl: verificationUrl(params.origin),
        verificationUrlComplete: verificationUrl(params.origin, shown),
        expiresIn: CLI_LOGIN_TTL_MS / 1000,
        interval: CLI_LOGIN_INTERVAL_SECONDS,
      };
    }
  }
  throw new Error(`no free sign-in code after ${DRAWS} draws`);
}

const pollCliLoginSchema = z.object({ deviceCode: z.string().min(1).max(200) });

export type CliLoginCollected = {
  token: string;
  user: { name: string; email: string };
  tokenInfo: { name: string; scope: string; projects: string[] };
};

const isExpired = (login: { expiresAt: Date }, now: Date) => login.expiresAt.getTime() <= now.getTime();
const expired = () => new ApiError("gone", "The sign-in code expired: run `baton login` again.", undefined, { reason: "expired" });

/**
 * The CLI asks whether its code was answered: the token, once (a 410 after), or why not yet. Only the
 * device code finds the login, and the token is made for whoever approved it: knowing the short code
 * shown on someone's screen gets nobody a token.
 */
export async function pollCliLogin(db: Db, input: unknown, now = new Date()): Promise<CliLoginCollected> {
  const { deviceCode } = pollCliLoginSchema.parse(input);
  const login = await findCliLoginByDeviceCode(db, { deviceCodeHash: await hashToken(deviceCode) });
  if (!login) throw new ApiError("not_found", "No such sign-in code on this server: run `baton login` again.");
  if (login.status === "collected") throw new ApiError("gone", "This sign-in code was used already: its token was handed out once.", undefined, { reason: "used" });
  if (isExpired(login, now)) throw expired();
  if (login.status === "denied") throw new ApiError("forbidden", "The sign-in was denied in the browser.", undefined, { reason: "denied" });
  if (login.status === "pending") {
    const tooSoon = login.lastPolledAt !== null && now.getTime() - login.lastPolledAt.getTime() < CLI_LOGIN_INTERVAL_SECONDS * 1000 - POLL_SLACK_MS;
    await markCliLoginPolled(db, { id: login.id, at: now });
    if (tooSoon) {
      throw new ApiError("rate_limited", `Ask at most every ${CLI_LOGIN_INTERVAL_SECONDS} s.`, undefined, { reason: "slow_down", headers: { "retry-after": String(CLI_LOGIN_INTERVAL_SECONDS) } });
    }
    throw new ApiError("authorization_pending", "Waiting for the code to be approved in the browser.");
  }
  const used = () => new ApiError("gone", "This sign-in code was used already: its token was handed out once.", undefined, { reason: "used" });
  const approved = await approvedTokenOf(db, { id: login.id });
  if (!approved) throw used();
  // The approval is spent in the transaction that makes the token: a failure there (the database gone
  // for a moment) leaves it approved, and the CLI's next poll collects it.
  const claim = { run: (tx: DbOrTx) => collectCliLogin(tx, { id: login.id, now }), refused: used };
  const { token, record } = await createApiToken(db, approved, claim);
  const user = await getUser(db, { userId: approved.userId });
  if (!user) throw new ApiError("not_found", "The account that approved this sign-in no longer exists.");
  return { token, user: { name: user.name, email: user.email }, tokenInfo: { name: record.name, scope: record.scope, projects: record.projects } };
}

/** What the approval page shows for a code. */
export type CliLoginView =
  | { state: "pending"; login: CliLoginRow & { shownCode: string } }
  | { state: "unknown" | "expired" | "answered"; shownCode: string };

/**
 * The login a signed-in person's code names. Codes that match nothing are counted per person: past
 * the limit the page refuses to look, so typing codes is no way to find other people's machines.
 */
export async function findCliLogin(db: Db, userId: string, typed: string, now = new Date()): Promise<CliLoginView> {
  const code = normaliseUserCode(typed);
  const wait = limits.unknownCodes.retryAfter(userId, now.getTime());
  if (wait > 0) throw new ApiError("rate_limited", `Too many codes that match nothing; try again in ${minutes(wait)} min.`);
  const login = code ? await findCliLoginByUserCode(db, { userCode: code }) : undefined;
  const shownCode = code ? formatUserCode(code) : typed.trim().slice(0, 20);
  if (!login) {
    limits.unknownCodes.record(userId, now.getTime());
    return { state: "unknown", shownCode };
  }
  if (isExpired(login, now)) return { state: "expired", shownCode };
  if (login.status !== "pending") return { state: "answered", shownCode };
  return { state: "pending", login: { ...login, shownCode } };
}

export const answerCliLoginSchema = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("deny"), code: z.string().max(40) }),
  newTokenSchema.extend({ decision: z.literal("approve"), code: z.string().max(40) }),
]);

/**
 * The signed-in person approves the code (with the token's name, scope and projects) or denies it.
 * Only a dashboard session may: a token that could approve codes could mint itself a wider token.
 */
export async function answerCliLogin(db: Db, principal: Principal, input: unknown, now = new Date()): Promise<{ decision: "approve" | "deny" }> {
  if (principal.via !== "session") throw new ApiError("forbidden", "Approve a sign-in in the dashboard, signed in: a token cannot.");
  const answer = answerCliLoginSchema.parse(input);
  const view = await findCliLogin(db, principal.userId, answer.code, now);
  if (view.state !== "pending") {
    if (view.state === "unknown") throw new ApiError("not_found", `No sign-in code ${view.shownCode}: check it against your terminal.`);
    if (view.state === "expired") throw expired();
    throw new ApiError("conflict", `The code ${view.shownCode} was answered already.`);
  }
  const decided =
    answer.decision === "deny"
      ? await decideCliLogin(db, { id: view.login.id, userId: principal.userId, now, status: "denied" })
      : await approve(db, principal.userId, view.login.id, answer, now);
  if (!decided) throw new ApiError("conflict", `The code ${view.login.shownCode} was answered already.`);
  return { decision: answer.decision };
}

async function approve(db: Db, userId: string, id: string, token: z.output<typeof newTokenSchema>, now: Date): Promise<boolean> {
  const projects = [...new Set(token.projects)];
  // Checked now, so a project that is not theirs is said here, not in the terminal later.
  await ownProjectIds(db, { userId, slugs: projects });
  return decideCliLogin(db, { id, userId, now, status: "approved", token: { name: token.name, scope: token.scope, projects } });
}
