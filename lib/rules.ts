/**
 * The product's rules, each written once: the values a learning, project, task or session can take,
 * the patterns ids must match, the limits on what is stored, and page sizes. No imports, so the db
 * schema, the zod schemas, the components, MCP and the CLI bundle all take them from here.
 */

/** What a learning is about (SPEC §2), in the order the dashboard lists them. */
export const LEARNING_KINDS = ["pattern", "insight", "self_knowledge"] as const;
export type LearningKind = (typeof LEARNING_KINDS)[number];

/**
 * How people read each kind: a heading-case label for forms and filters, a short badge (also the
 * singular in counts), its plural ("3 patterns"; self-knowledge has none), what it means.
 */
export const KIND_INFO: Record<LearningKind, { label: string; badge: string; plural: string; meaning: string; seedCategory: SeedCategory }> = {
  pattern: { label: "Pattern", badge: "pattern", plural: "patterns", meaning: "how things are done here", seedCategory: "patterns" },
  insight: { label: "Insight", badge: "insight", plural: "insights", meaning: "a fact learned", seedCategory: "insights" },
  self_knowledge: { label: "Self-knowledge", badge: "self-knowledge", plural: "self-knowledge", meaning: "about the agent itself", seedCategory: "selfKnowledge" },
};

/** pai-seed's seed.json keeps learned items in one list per kind under these keys. */
export const SEED_CATEGORIES = ["patterns", "insights", "selfKnowledge"] as const;
export type SeedCategory = (typeof SEED_CATEGORIES)[number];
export const KIND_OF_SEED_CATEGORY = Object.fromEntries(
  LEARNING_KINDS.map((kind) => [KIND_INFO[kind].seedCategory, kind]),
) as Record<SeedCategory, LearningKind>;

export function isLearningKind(value: unknown): value is LearningKind {
  return typeof value === "string" && (LEARNING_KINDS as readonly string[]).includes(value);
}

/**
 * How a learning came to be (issue 27's provenance): accepted from a proposal (an agent's, the hooks',
 * or one imported pending), typed by a person (dashboard, API, CLI), or imported with a seed.
 */
export const LEARNING_ORIGINS = ["proposal", "typed", "import"] as const;
export type LearningOrigin = (typeof LEARNING_ORIGINS)[number];

/**
 * A learning's or proposal's `source` is the session it came from; when none is given, the way it was
 * written: typed (dashboard, API), through MCP, imported with a seed, or `baton remember` outside a
 * session. These words name no session, so provenance shows none for them.
 */
export const SOURCE_DEFAULTS = { typed: "manual", mcp: "mcp", import: "import", remember: "remember" } as const;
export const NOT_A_SESSION: ReadonlySet<string> = new Set(Object.values(SOURCE_DEFAULTS));

/**
 * Why a learning that names files was flagged for review (issue 27): a later session deleted one of
 * them, or rewrote most of its lines, or the path is gone from the repository.
 */
export const FLAG_REASONS = ["deleted", "rewritten", "missing"] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** How a session touched what a learning it was given is about: one of its files, a command it names, its distinctive words. */
export const TOUCH_HOWS = ["file", "command", "words"] as const;
export type TouchHow = (typeof TOUCH_HOWS)[number];

/**
 * The most learnings that name files the session-end worker is sent to check, per session (newest
 * first): bounds the answer and the worker's look at the disk.
 */
export const MAX_NAMED_LEARNINGS_CHECKED = 200;

export const PROPOSAL_STATUSES = ["pending", "accepted", "rejected"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** A server-wide role: admins manage users (list, disable, reset links, promote); members do not. */
export const USER_ROLES = ["admin", "member"] as const;
export type UserRole = (typeof USER_ROLES)[number];
/** How long an admin's password reset link works. */
export const PASSWORD_RESET_HOURS = 24;
/** Users listed on one admin page. */
export const ADMIN_USERS_PAGE_SIZE = 50;

export const PROJECT_ROLES = ["owner", "member", "viewer"] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/**
 * An invitation to a project (issue 21): membership needs the invitee's yes. Only a pending one can be
 * accepted, declined or revoked; the others are kept as the record of what was decided.
 */
export const INVITATION_STATUSES = ["pending", "accepted", "declined", "revoked"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
/** How long an invitation link lets someone in (issue 24); an owner can make a new one any time. */
export const INVITATION_LINK_DAYS = 7;
/** The mail with an invitation link: queued, handed to the SMTP server, or refused on the way. */
export const INVITATION_MAIL_STATES = ["sending", "sent", "failed"] as const;
export type InvitationMailState = (typeof INVITATION_MAIL_STATES)[number];

export const MATCHER_KINDS = ["cwd", "remote"] as const;
export type MatcherKind = (typeof MATCHER_KINDS)[number];

export const TOKEN_SCOPES = ["read", "write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/**
 * A `baton login` code: waiting for the person's answer, denied, approved (the token not collected
 * yet), or collected (the CLI has its token). An expired code is one past its expiry, whatever its status.
 */
export const CLI_LOGIN_STATUSES = ["pending", "denied", "approved", "collected"] as const;
export type CliLoginStatus = (typeof CLI_LOGIN_STATUSES)[number];

export const SESSION_STATUSES = ["todo", "doing", "done"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** Session documents run lowest number first; a document that names no priority is `medium`. */
export const SESSION_PRIORITIES = { critical: 0, high: 1, medium: 2, low: 3 } as const;
export type SessionPriorityName = keyof typeof SESSION_PRIORITIES;
export const DEFAULT_SESSION_PRIORITY = SESSION_PRIORITIES.medium;

/** A project slug: also a path segment and a `.baton.json` value. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
/**
 * The review queue's filter value for the user's personal proposals: no slug can take it (a project may
 * be named "personal").
 */
export const PERSONAL_ONLY = "~personal";
export const SLUG_MAX = 64;
export const SLUG_RULE = "Use lowercase letters, digits and dashes, starting with a letter or digit.";

/** A task id is also a file name on developers' machines (`backlog/memory/<taskId>.md`): no slashes, no leading dot. */
export const TASK_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
export const TASK_ID_RULE =
  "A task id is 1–100 letters, digits, dots, dashes or underscores, starting with a letter or digit (e.g. task-368).";

/**
 * The file `baton task start` imports the active task's memory in: Claude Code (2.1) reads a
 * repository's CLAUDE.local.md as the developer's own project memory, and the CLI keeps it out of git
 * through .git/info/exclude, so CLAUDE.md (which teams commit) is never touched.
 */
export const TASK_IMPORT_FILE = "CLAUDE.local.md";

/** How many learnings one accepted proposal may supersede at once. */
export const MAX_SUPERSEDES = 20;

/** The longest learning or proposal content, in characters. */
export const MAX_CONTENT_CHARS = 10_000;
export const MAX_TAGS = 32;
export const MAX_TAG_CHARS = 64;
/** Free-text search and context hints, in characters. */
export const MAX_QUERY_CHARS = 2_000;
/**
 * A search hint a hook sends is cut to this many bytes as the URL carries it, too: Node's HTTP parser
 * refuses a request whose line and headers pass 16 KB, and 2,000 characters of CJK text are 18 KB
 * percent-encoded (each character 3 bytes of UTF-8, each byte "%XX").
 */
export const MAX_HINT_URL_BYTES = 6_000;
export const MAX_NAME_CHARS = 100;
export const MAX_SOURCE_CHARS = 200;

/**
 * Imports are bounded (issue 21): one seed import may carry at most MAX_IMPORT_ROWS learned items and
 * proposals together, and a user may hold at most MAX_LEARNINGS_PER_USER learnings. Both leave room
 * above the 200,000-learning stores people bring (the largest seen was 190,000 learnings in 13.9 MB);
 * beyond them an import is refused whole, before anything is written. `baton import` sends a larger
 * seed.json in parts of IMPORT_PART_ROWS rows, so the row limit bounds one request's work, not a file.
 */
export const MAX_IMPORT_ROWS = 250_000;
export const MAX_LEARNINGS_PER_USER = 250_000;
export const IMPORT_PART_ROWS = 20_000;

/** libSQL cuts text at a NUL character, so no stored text may contain one. */
export const NUL_RULE = "The text contains a NUL character (\\u0000), which cannot be stored.";
export function containsNul(text: string): boolean {
  return text.includes("\u0000");
}

/** List routes: `limit` defaults to DEFAULT_PAGE_SIZE and never exceeds MAX_PAGE_SIZE. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** The review queue shows more at once: reviewers work through it by keyboard. */
export const REVIEW_PAGE_SIZE = 50;
export const MAX_REVIEW_PAGE_SIZE = 200;

/** What started a session, as Claude Code's SessionStart hook says it; after `compact` the handoff matters most. */
export const SESSION_SOURCES = ["startup", "resume", "clear", "compact", "fork"] as const;
export type SessionSource = (typeof SESSION_SOURCES)[number];
/** A host's session id (Claude Code's are UUIDs): kept to this length. */
export const MAX_SESSION_ID_CHARS = 200;

/** What a context holds: everything, or everything but identity, for hosts that inject identity themselves (PAI). */
export const CONTEXT_MODES = ["full", "complement"] as const;
export type ContextMode = (typeof CONTEXT_MODES)[number];

/** The context's token budget (SPEC §3) and Claude Code's limit on injected characters. */
export const DEFAULT_CONTEXT_BUDGET = 2_000;
export const MIN_CONTEXT_BUDGET = 200;
export const MAX_CONTEXT_BUDGET = 32_000;
/** Claude Code keeps the first 10,000 characters of a hook's injected context (additionalContext) and shows the rest as a file path. */
export const CLAUDE_CODE_MAX_CHARS = 10_000;
/** 500 under Claude Code's limit leaves room for its own framing. */
export const DEFAULT_CONTEXT_MAX_CHARS = CLAUDE_CODE_MAX_CHARS - 500;
/** What a caller may ask for instead, with its own limit in mind. */
export const MIN_CONTEXT_CHARS = 200;
export const MAX_CONTEXT_CHARS = 200_000;
/** Stored markdown a dashboard page renders, one text and all of a page's (1–2 ms a kilobyte on the server's one thread); past either, plain text. */
export const MAX_RENDERED_MARKDOWN = { text: 20_000, page: 200_000 } as const;

/**
 * The prompt stage (SPEC §3): at each prompt the `UserPromptSubmit` hook asks for learnings relevant to
 * it that the session has not been given. A small budget: it is paid again at every prompt.
 */
export const DEFAULT_PROMPT_BUDGET = 400;
export const MIN_PROMPT_BUDGET = 50;
/** How much of a prompt the hook sends: its opening says what it is about, and the URL stays short. */
export const PROMPT_HINT_CHARS = 1_000;
/** What the server remembers having given a session (to leave it out at the next prompt), for this long. */
export const SESSION_SERVED_RETENTION_DAYS = 14;

/** What the audit trail records (issue 13): who did which of these to what, and when. */
export const AUDIT_ACTIONS = ["add", "accept", "reject", "edit", "pin", "supersede", "undo", "delete", "keep"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_SUBJECTS = ["learning", "proposal", "handoff", "member", "invitation", "token", "user"] as const;
export type AuditSubject = (typeof AUDIT_SUBJECTS)[number];
/** How much of a subject's text the trail keeps: enough to recognise it once the subject is deleted. */
export const AUDIT_LABEL_CHARS = 80;

/**
 * Every agent's own time limit for each hook, in seconds (each installer writes it in its agent's unit,
 * and the dashboard's Connect page shows Claude Code's):
 * a backstop far above the CLI's own limits (timeoutMs, promptTimeoutMs), which a repository's
 * .baton.json may raise to 120 s. Session end has none where it hands its work to a detached process.
 */
export const HOOK_TIMEOUT_SECONDS = { sessionStart: 30, prompt: 10, preCompact: 30, sessionEnd: 10 } as const;

/** Every coding agent Baton has an adapter for (a folder each under cli/src/agents/). */
export const AGENT_NAMES = ["claude", "codex", "gemini", "copilot", "opencode"] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/** How people call each agent: in handoff bylines, the dashboard, `baton doctor`. */
export const AGENT_LABELS: Record<AgentName, string> = {
  claude: "Claude Code",
  codex: "Codex CLI",
  gemini: "Gemini CLI",
  copilot: "Copilot CLI",
  opencode: "opencode",
};

export const isAgentName = (value: unknown): value is AgentName => typeof value === "string" && (AGENT_NAMES as readonly string[]).includes(value);

/** The longest model name a hook may report with a handoff or proposal. */
export const MAX_MODEL_CHARS = 100;
/**
 * A model name is printable: no control or invisible formatting characters (a bidi override would
 * let it read as something else in a byline). The server refuses any other name, so a hook checks
 * it before sending rather than lose its handoff to a 400.
 */
export const MODEL_NAME_PATTERN = /^\P{C}+$/u;
export const isModelName = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= MAX_MODEL_CHARS && value.trim() === value && MODEL_NAME_PATTERN.test(value);

/**
 * What kind of lesson a session taught, as the extractor finds them (cli/src/lessons/): the user
 * correcting the agent, a failure a later step resolved, a decision and its reason, a fact found out,
 * or a statement made in so many words ("always …").
 */
export const LESSON_KINDS = ["correction", "resolved_failure", "decision", "fact", "explicit"] as const;
export type LessonKind = (typeof LESSON_KINDS)[number];

/** The most proposals one session sends: the most confident first. */
export const MAX_PROPOSALS_PER_SESSION = 5;

/** How people read each kind of lesson: the review queue's label under a proposal. */
export const LESSON_LABELS: Record<LessonKind, string> = {
  correction: "correction",
  resolved_failure: "resolved failure",
  decision: "decision",
  fact: "fact",
  explicit: "explicit",
};

export const isLessonKind = (value: unknown): value is LessonKind => typeof value === "string" && (LESSON_KINDS as readonly string[]).includes(value);

/**
 * How a proposal's candidate was found: read from the transcript by the session-end worker, proposed
 * by the agent itself (MCP's propose_learning, `baton remember`), or by a model summarising the session.
 * pai-seed imports keep their own values ("regex", "llm"), so stored methods are read as any text.
 */
export const PROPOSAL_METHODS = ["transcript", "agent", "model"] as const;
export type ProposalMethod = (typeof PROPOSAL_METHODS)[number];

/** How the review queue says a candidate was found, when not simply read from the transcript. */
export const PROPOSAL_METHOD_LABELS: Partial<Record<ProposalMethod, string>> = {
  agent: "proposed by the agent",
  model: "found by a model in the session",
};

/**
 * A proposal's evidence: the session lines it came from, each with who said it. At most
 * MAX_EVIDENCE_LINES lines of at most MAX_EVIDENCE_CHARS characters: enough to judge the lesson by,
 * short enough to read under it in the review queue.
 */
export const EVIDENCE_SPEAKERS = ["user", "assistant", "tool"] as const;
export type EvidenceSpeaker = (typeof EVIDENCE_SPEAKERS)[number];
export const MAX_EVIDENCE_LINES = 8;
export const MAX_EVIDENCE_CHARS = 300;
/** One evidence line: its turn in the session, when (ISO 8601, when the transcript says), who, and the text. */
export type EvidenceLine = { turn: number; at: string | null; who: EvidenceSpeaker; text: string };
