import { existsSync } from "node:fs";
import path from "node:path";
import type { Session } from "../agents/session";
import { git } from "../config/git-info";
import { Unreachable, type ApiCall } from "../http/api-client";
import { findFile, sessionFacts, verdictOf, type CheckedLearning, type SessionFacts } from "./verdicts";

// Used or not and flags (issue 27), the session-end worker's step after its handoff and proposals:
// asks the server which learnings this session was given and which of its project's learnings name
// files, decides here (the transcript never leaves the machine), and posts the verdicts and flags only.

type FlagReason = "deleted" | "rewritten" | "missing";
export type Flag = { id: string; reason: FlagReason; file: string };
type Asked = { given: CheckedLearning[]; named: { id: string; files: string[] }[] };

/** Git's empty tree: a diff of HEAD against it counts a file's lines at HEAD. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
/** "Most of its lines changed": at least this share of the file's lines at HEAD removed or replaced. */
const REWRITTEN_SHARE = 0.5;

/** A path that reads as relative to the repository's root: not absolute, not above it, with a folder (a bare name may live anywhere). */
const looksRepoRelative = (file: string) => !path.isAbsolute(file) && !file.startsWith("../") && !file.startsWith("~") && file.includes("/");

/** Lines removed and added by `git diff --numstat` between two trees (null: git cannot say, or a binary file). */
async function numstat(root: string, args: string[], file: string, timeoutMs: number): Promise<{ added: number; removed: number } | null> {
  const out = await git(["diff", "--numstat", ...args, "--", file], root, timeoutMs);
  const m = out ? /^(\d+)\s+(\d+)\s/.exec(out) : null;
  return m ? { added: Number(m[1]), removed: Number(m[2]) } : null;
}

/**
 * Whether the session rewrote most of a file: of its lines at HEAD, at least half removed or replaced
 * in the working tree (`git diff --numstat HEAD`). Chosen over "the session wrote it whole", which an
 * agent's Write tool also reports for a one-line change. Changes the session already committed are
 * not seen: a commit is a reviewed change, not a surprise.
 */
async function rewritten(root: string, file: string, timeoutMs: number): Promise<boolean> {
  const [changed, atHead] = await Promise.all([numstat(root, ["HEAD"], file, timeoutMs), numstat(root, [EMPTY_TREE, "HEAD"], file, timeoutMs)]);
  if (!changed || !atHead || !atHead.added) return false;
  return changed.removed >= atHead.added * REWRITTEN_SHARE;
}

/**
 * Why a learning's file is in doubt after this session, or null: the session deleted it (and it is
 * gone), rewrote most of it, or (a path relative to the root, whose first folder still exists) it no
 * longer exists. `root` null: no repository, so only what the transcript says counts.
 */
export async function flagFor(l: { id: string; files: string[] }, facts: SessionFacts, root: string | null, timeoutMs: number): Promise<Flag | null> {
  for (const file of l.files) {
    const deleted = findFile(facts.deleted, file);
    if (deleted && (!root || !existsSync(path.resolve(root, deleted)))) return { id: l.id, reason: "deleted", file };
    if (!root) continue;
    const changed = findFile(facts.changed, file);
    if (changed && existsSync(path.resolve(root, changed)) && (await rewritten(root, changed, timeoutMs))) return { id: l.id, reason: "rewritten", file };
    if (looksRepoRelative(file) && existsSync(path.join(root, file.split("/")[0]!)) && !existsSync(path.join(root, file))) return { id: l.id, reason: "missing", file };
  }
  return null;
}

/** What is posted: verdicts and flags, nothing of the transcript. */
export type UsageReport = { sessionId: string; verdicts: ReturnType<typeof verdictOf>[]; flags: Flag[] };

export async function decideUsage(asked: Asked, session: Session, where: { root: string | null; cwd: string }, timeoutMs: number): Promise<Omit<UsageReport, "sessionId">> {
  const facts = sessionFacts(session, where.root ?? where.cwd, where.cwd);
  const verdicts = asked.given.map((l) => verdictOf(l, facts));
  const checked = new Map([...asked.given, ...asked.named].filter((l) => l.files.length).map((l) => [l.id, l]));
  const flags: Flag[] = [];
  for (const l of checked.values()) {
    const flag = await flagFor(l, facts, where.root, timeoutMs);
    if (flag) flags.push(flag);
  }
  return { verdicts, flags };
}

/** The whole step; says in the log what it did. Never throws: it is bookkeeping after the session's real work. */
export async function reportUsage(
  call: ApiCall,
  sessionId: string,
  session: Session,
  where: { root: string | null; cwd: string },
  options: { timeoutMs: number; gitMs: number; log: (m: string) => void },
): Promise<void> {
  try {
    const res = await call("GET", `/api/context/usage?${new URLSearchParams({ sessionId })}`, undefined, { timeoutMs: options.timeoutMs });
    if (res.status !== 200) return options.log(`usage: the server did not say what the session was given (${res.status})`);
    const asked = res.json as Asked;
    const decided = await decideUsage({ given: asked.given ?? [], named: asked.named ?? [] }, session, where, options.gitMs);
    if (!decided.verdicts.length && !decided.flags.length) return;
    const report: UsageReport = { sessionId, ...decided };
    const posted = await call("POST", "/api/context/usage", report, { timeoutMs: options.timeoutMs });
    const touched = decided.verdicts.filter((v) => v.touched).length;
    options.log(`usage: ${decided.verdicts.length} given, ${touched} touched, ${decided.flags.length} flagged (${posted.status})`);
  } catch (error) {
    if (!(error instanceof Unreachable)) options.log(`usage: ${(error as Error).message}`);
  }
}
