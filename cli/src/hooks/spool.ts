import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import { answerKind, notBatonDetail, Unreachable, type ApiCall, type ApiResponse } from "../http/api-client";
import type { Redacted } from "../../../lib/secrets/redact-secrets";
import { cacheDir, cacheDirIfAny, hookLog } from "./hook-log";
import { writeWhole } from "../output/write-whole";

/**
 * Requests the server could not take yet, one JSON file each, sent again by the next hook run. The
 * token is not stored: the file is sent with whatever token is configured then, but only to the server
 * it was meant for (`server`), so a handoff of one server's project never reaches another server.
 */
export type SpooledRequest = {
  method: "POST" | "PUT";
  path: string;
  body: unknown;
  what: string;
  createdAt: string;
  /**
   * What the request replaces: an older spooled request with the same key is old news once this one is
   * spooled, and is deleted (a session's handoff: the server keeps the newest of a session anyway, and a
   * Stop hook after every turn would spool one each turn).
   */
  replaces?: string;
  /**
   * The server it was meant for (serverOf: scheme, host, port and path; no credentials). Absent in files
   * spooled before it was kept, and when no server was configured: those go to whichever is configured.
   */
  server?: string;
};

/** The server a URL names, as a spooled file keeps it: no credentials, query or trailing slash. */
export function serverOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname.replace(/\/+$/, "")}`;
  } catch {
    return url;
  }
}

/** Files older than this are given up on (logged), so a permanently refused request cannot pile up. */
const MAX_AGE_MS = 14 * 24 * 3600 * 1000;

export function spoolDir(): string {
  return path.join(cacheDir(), "spool");
}

let written = 0;

/**
 * Written to a temporary name and renamed, so a reader never sees half a file. Names sort in the
 * order written (time, then a counter within this process), which is the order they are sent. Only a
 * redacted request is accepted (a type-only brand: this file, which every hook imports to flush, does
 * not load the redactor itself): secrets never reach the disk through the spool.
 */
export function writeSpool(request: Redacted<Omit<SpooledRequest, "createdAt" | "server">>, server: string | null, dir = spoolDir()): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = request.replaces === undefined ? "" : keyOf(request.replaces);
  const name = `${Date.now().toString().padStart(14, "0")}-${String(written++).padStart(6, "0")}-${process.pid}-${randomBytes(4).toString("hex")}${key}.json`;
  const file = path.join(dir, name);
  writeWhole(file, JSON.stringify({ ...request, ...(server ? { server: serverOf(server) } : {}), createdAt: new Date().toISOString() }), { mode: 0o600 });
  // What this one replaces (waiting, not being sent: older than it, as names sort by time, so two
  // writers of one session never delete each other's), and what has waited too long, go now: the spool
  // stays bounded when nothing ever flushes it (no server configured, or one down for weeks).
  for (const other of pendingSpool(dir)) {
    if (tooOld(other)) drop(other, GIVEN_UP);
    else if (key && other < file && other.endsWith(`${key}.json`)) drop(other, `replaced by ${name}`);
  }
  return file;
}

/** The end of a spooled file's name that says what it replaces. */
const keyOf = (replaces: string) => `-k${createHash("sha256").update(replaces).digest("hex").slice(0, 16)}`;

/** Whether a request that replaces `replaces` (a session's handoff) waits in the spool. */
export function waiting(replaces: string, dir = cacheDirIfAny() && spoolDir()): boolean {
  const key = `${keyOf(replaces)}.json`;
  return !!dir && pendingSpool(dir).some((file) => file.endsWith(key));
}

/** A spooled file's request as far as it can be read (undefined for one that cannot: the flush drops it). */
function peek(file: string): Partial<SpooledRequest> | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Partial<SpooledRequest>;
  } catch {
    return undefined;
  }
}

/**
 * Whether a spooled file has waited past MAX_AGE_MS: by the time it says it was spooled (`request`, when
 * read already; else read now: a spool holds a few small files), else by its file's time.
 */
function tooOld(file: string, request?: Partial<SpooledRequest>): boolean {
  try {
    const created = Date.parse((request ?? (JSON.parse(readFileSync(file, "utf8")) as Partial<SpooledRequest>)).createdAt ?? "");
    return Date.now() - (Number.isNaN(created) ? statSync(file).mtimeMs : created) > MAX_AGE_MS;
  } catch {
    return false; // sent or dropped meanwhile, or not JSON (the flush drops it)
  }
}

const GIVEN_UP = `given up after ${MAX_AGE_MS / 86_400_000} days`;

function drop(file: string, why: string): void {
  hookLog(`spool: dropped ${path.basename(file)}: ${why}`);
  safeUnlink(file);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Files ready to send, oldest first; claims left behind by a process that died are put back first. */
export function pendingSpool(dir = spoolDir()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  for (const name of names) {
    const claim = /^(.*\.json)\.sending-(\d+)$/.exec(name);
    if (claim && !alive(Number(claim[2]))) {
      try {
        renameSync(path.join(dir, name), path.join(dir, claim[1]!));
      } catch {
        // taken back by another process meanwhile
      }
    }
  }
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith(".json"))
      .sort()
      .map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}

export type FlushResult = { sent: number; dropped: number; kept: number; stoppedBy: string | null };

/** What became of one file: sent, dropped for good, taken by another hook, or the reason the flush stops. */
type FileOutcome = "sent" | "dropped" | "taken" | { stoppedBy: string };

/** Below this much time left, a request is not started: it could not finish. */
const MIN_REQUEST_MS = 50;

/**
 * Sends spooled requests oldest first until `deadline`. Each file is claimed by renaming it first,
 * so two hooks running at once never send the same file; it is deleted only after Baton's 2xx (or a 4xx
 * that will never succeed, which is logged, and the flush goes on), and put back otherwise. The first
 * failure to reach the server, or an answer a resend may change (retryable), ends the flush: the rest
 * would fail the same way.
 */
export async function flushSpool(call: ApiCall, server: string, deadline: number, dir?: string): Promise<FlushResult> {
  const result: FlushResult = { sent: 0, dropped: 0, kept: 0, stoppedBy: null };
  // No home folder (config/home.ts): no spool was ever written, nothing to send.
  const where = dir ?? (cacheDirIfAny() && spoolDir());
  if (!where) return result;
  // Another server's requests wait for a hook run configured with that server (or until they are too old).
  const mine = serverOf(server);
  const files = pendingSpool(where).filter((file) => {
    const request = peek(file);
    if (tooOld(file, request)) {
      drop(file, GIVEN_UP);
      return false;
    }
    return !request?.server || request.server === mine;
  });
  for (let i = 0; i < files.length; i++) {
    const remaining = deadline - Date.now();
    const outcome = remaining < MIN_REQUEST_MS ? { stoppedBy: "time" } : await sendFile(call, files[i]!, remaining);
    if (outcome === "sent") result.sent++;
    else if (outcome === "dropped") result.dropped++;
    else if (outcome !== "taken") {
      result.kept += files.length - i;
      result.stoppedBy = outcome.stoppedBy;
      break;
    }
  }
  return result;
}

async function sendFile(call: ApiCall, file: string, remaining: number): Promise<FileOutcome> {
  const claimed = `${file}.sending-${process.pid}`;
  try {
    renameSync(file, claimed);
  } catch {
    return "taken";
  }
  const request = readClaimed(claimed, file);
  if (!request) return "dropped";
  try {
    const res = await call(request.method, request.path, request.body, { timeoutMs: remaining });
    return settle(request, res, claimed, file);
  } catch (error) {
    putBack(claimed, file);
    return { stoppedBy: error instanceof Unreachable ? error.reason : (error as Error).message };
  }
}

/** The claimed file's request; an unreadable file is logged and deleted (null). */
function readClaimed(claimed: string, file: string): SpooledRequest | null {
  try {
    const request = JSON.parse(readFileSync(claimed, "utf8")) as SpooledRequest;
    if (!request || typeof request.path !== "string" || !request.path.startsWith("/api/")) throw new Error("not a spooled request");
    return request;
  } catch (error) {
    hookLog(`spool: dropped unreadable ${path.basename(file)}: ${(error as Error).message}`);
    safeUnlink(claimed);
    return null;
  }
}

/** What the server's answer means for the claimed file: delete it (sent or hopeless), or put it back and stop. */
function settle(request: SpooledRequest, res: ApiResponse, claimed: string, file: string): FileOutcome {
  const kind = answerKind(res);
  if (kind === "sent") {
    safeUnlink(claimed);
    return "sent";
  }
  if (kind === "not-baton") {
    // Not Baton's answer (an SSO page, a captive portal, a gateway's 403): not sent; the rest would fare the same.
    putBack(claimed, file);
    return { stoppedBy: `${res.server} did not answer as a Baton server (${notBatonDetail(res)})` };
  }
  if (kind === "refused") {
    hookLog(`spool: dropped ${request.what} (${request.method} ${request.path}): the server answered ${res.status} ${res.text.slice(0, 300)}`);
    safeUnlink(claimed);
    return "dropped";
  }
  if (tooOld(claimed, request)) {
    drop(claimed, `${request.what}: ${GIVEN_UP}; last answer ${res.status}`);
    return "dropped";
  }
  putBack(claimed, file);
  return { stoppedBy: `status ${res.status}` };
}

function putBack(claimed: string, file: string) {
  try {
    renameSync(claimed, file);
  } catch {
    // nothing to put back
  }
}

function safeUnlink(file: string) {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
