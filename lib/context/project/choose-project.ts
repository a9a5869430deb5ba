import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/client";
import { readAll } from "../../db/queries/batch-reads";
import { projectChoicesRead } from "../../db/queries/context";
import type { MemberProject } from "../../db/queries/projects";
import { NO_TOPIC, sessionProjectRead, type SessionStart, type SessionTopic } from "../../db/queries/session-served";
import type { MatcherKind } from "../../db/schema";
import { checkProjectAccess } from "../../projects/projects";
import { directoryName, matchProject } from "./match-project";
import { startedIn } from "../cache/recent-sessions";

// Which project a session is in is the server's decision, made here for every route a hook uses (the
// context, the prompt stage, handoffs posted by hooks, /api/context/project): a slug the client only
// guessed from its remote or directory can never pull a session into a project another user made.

/** A project the user is a member of, with one of its matchers (null: none, or the project named) and when the user joined it. */
export type ProjectChoice = MemberProject & { joinedAt: Date; matcherKind: MatcherKind | null; matcherPattern: string | null };

/**
 * What a client knows of where a session runs: the slug the user configured (`.baton.json` or their
 * config), the working directory, the git remote, and the slug the client guessed from the remote or
 * the directory (the directory's name when it sends none).
 */
export type ProjectHints = { project?: string; guess?: string; cwd?: string; remote?: string };

/** Whether the hints could name a project at all; without any, the context is personal. */
export function hintsNameProject(q: ProjectHints): boolean {
  return Boolean(q.project || q.guess || q.cwd || q.remote);
}

function guessOf(q: ProjectHints): string | null {
  return q.guess ?? (q.cwd ? directoryName(q.cwd) : null);
}

/** The read of what chooseProject picks from for these hints (the project configured, else every one a matcher or the guess could name). */
export function projectChoicesFor(db: Db, principal: Principal, q: ProjectHints) {
  return projectChoicesRead(db, { userId: principal.userId, slug: q.project, guess: guessOf(q) });
}

/**
 * The session's project, in this order: the project configured (or a 404/403, as requireProject
 * answers: the user named it); else the project whose matcher fits best among those the user is a
 * member of (match-project.ts: the most specific matcher, then the project joined first); else the
 * user's project whose slug is the guess. null: a personal context. `choices` are what
 * projectChoicesFor read for these hints.
 */
export function chooseProject(choices: ProjectChoice[], principal: Principal, q: ProjectHints): MemberProject | null {
  const toProject = (c: ProjectChoice): MemberProject => ({ id: c.id, slug: c.slug, name: c.name, role: c.role, injectionPaused: c.injectionPaused, createdAt: c.createdAt });
  if (q.project) {
    const named = choices.find((c) => c.slug === q.project);
    return checkProjectAccess(named && toProject(named), principal, q.project);
  }
  // A project-limited token's other projects are not candidates: the next rule decides instead.
  const allowed = choices.filter((c) => !principal.projectIds || principal.projectIds.includes(c.id));
  const matchers = allowed.flatMap((c) => (c.matcherKind && c.matcherPattern ? [{ slug: c.slug, kind: c.matcherKind, pattern: c.matcherPattern, joinedAt: c.joinedAt.getTime() }] : []));
  const slug = matchProject(matchers, { cwd: q.cwd ?? null, remote: q.remote ?? null }) ?? guessOf(q);
  const found = slug ? allowed.find((c) => c.slug === slug) : undefined;
  return found ? toProject(found) : null;
}

/** The project a session started in, as far as this instance knows it, and the reads to settle it. */
export type SessionProjectHints = ProjectHints & { sessionId?: string };

/**
 * The reads deciding a session's project for a stage after its start: the project its start was
 * served for (session_projects), and what chooseProject picks from, for a session whose start never
 * reached the server. One batch with the stage's own reads.
 */
export function sessionProjectReads(db: Db, principal: Principal, q: SessionProjectHints) {
  return {
    session: q.sessionId ? sessionProjectRead(db, { userId: principal.userId, sessionId: q.sessionId }) : undefined,
    choices: hintsNameProject(q) ? projectChoicesFor(db, principal, q) : undefined,
  };
}

/**
 * The session's project after its start: the one its start was served for (this instance's memory
 * first: the table is written up to a second later), else resolved again from the hints as the start
 * would have. A token limited to other projects gets nothing of a session's project.
 */
export function sessionProject(read: SessionRead, principal: Principal, q: SessionProjectHints): MemberProject | null {
  const known = knownStart(read, principal, q);
  if (known) return known.project && allowed(principal, known.project) ? known.project : null;
  return read.choices ? chooseProject(read.choices, principal, q) : null;
}

type SessionRead = { session?: SessionStart; choices?: ProjectChoice[] };

/**
 * The user's own record of the session's start: this instance's memory first (the table is written up
 * to a second later), else the table (both keyed by user and session id). Where the table holds the
 * same start, its answer is taken: it is read with the user's membership now, and someone who has left
 * the project since gets nothing of it (the memory holds the project as it was at the start).
 */
function knownStart(read: SessionRead, principal: Principal, q: SessionProjectHints): SessionStart | undefined {
  const remembered = q.sessionId ? startedIn(principal.userId, q.sessionId) : undefined;
  const stored = read.session;
  // The words stay the memory's: a session started again (resume, clear) may have searched other words,
  // and the table gets them up to a second later.
  if (remembered && stored && (stored.storedProject ?? null) === (remembered.project?.id ?? null)) return { ...remembered, project: stored.project };
  return remembered ?? stored;
}

const allowed = (principal: Principal, project: MemberProject) => !principal.projectIds || principal.projectIds.includes(project.id);

/**
 * What the session is about as its start told the server (the words it searched for), from the same
 * reads as sessionProject: none for a session whose start was never recorded, or whose project this
 * token may not see.
 */
export function sessionTermsOf(read: SessionRead, principal: Principal, q: SessionProjectHints): SessionTopic {
  const known = knownStart(read, principal, q);
  if (!known || (known.project && !allowed(principal, known.project))) return NO_TOPIC;
  return known.terms;
}

/** The session's project as sessionProject decides it, read in a batch of its own (routes that read nothing else first). */
export async function resolveSessionProject(db: Db, principal: Principal, q: SessionProjectHints): Promise<MemberProject | null> {
  const r = await readAll(db, sessionProjectReads(db, principal, q));
  return sessionProject(r, principal, q);
}
