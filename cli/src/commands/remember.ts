import { expectProjectOk, requireServer, resolveProject, type CommandProject } from "../config/server-context";
import { SOURCE_DEFAULTS } from "../../../lib/rules";
import { CliError, EXIT } from "../exit-codes";
import { expectOk } from "../http/api-client";
import { parseOptions } from "../output/parse-options";
import { printResult } from "../output/print";

type Proposal = { id: string; kind: string; content: string; project: string | null; mergedCount: number; confidence: number };
type Answer = { merged: false | "proposal" | "learning"; proposal: Proposal | null; learning: { id: string; content: string } | null };

/** The kinds an agent proposes on the spot: self-knowledge is the agent's own, not a session's lesson. */
const REMEMBER_KINDS = ["pattern", "insight"] as const;
type RememberKind = (typeof REMEMBER_KINDS)[number];
const isRememberKind = (value: string): value is RememberKind => (REMEMBER_KINDS as readonly string[]).includes(value);

/** How sure an agent is of what it chose to remember: above an extractor's guess, below a person's word. */
const AGENT_CONFIDENCE = 0.7;

/** The session the agent runs in, when its host says: the proposal's source, so a reviewer can find it. */
function sessionSource(): string {
  const id = process.env.BATON_SESSION_ID?.trim() || process.env.CLAUDE_SESSION_ID?.trim();
  return id || SOURCE_DEFAULTS.remember;
}

/**
 * `baton remember "…"`: the agent proposes a learning on the spot (also the Claude Code plugin's
 * /remember). It goes to the review queue marked as proposed by the agent, for the project of this
 * repository, or personal when no project of the user's matches it.
 */
export async function runRemember(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { kind: { type: "string" }, project: { type: "string" } }, 1);
  const content = positionals[0]?.trim() ?? "";
  if (!content) throw new CliError('say what to remember: baton remember "this repo uses pnpm, not npm".', EXIT.usage);
  const kind = values.kind ?? "pattern";
  if (!isRememberKind(kind)) throw new CliError(`--kind must be ${REMEMBER_KINDS.join(" or ")}, not "${kind}".`, EXIT.usage);
  const ctx = requireServer();
  // A repository in no project of the user's: the learning is still worth keeping, as a personal one.
  const project = await resolveProject(ctx, values.project).catch((error: unknown) => {
    if (values.project || !(error instanceof CliError) || error.exitCode !== EXIT.notFound) throw error;
    return null;
  });
  const body = { kind, content, source: sessionSource(), confidence: AGENT_CONFIDENCE, method: "agent", ...(project ? { project: project.slug } : {}) };
  const res = await ctx.call("POST", "/api/proposals", body);
  const answer = project ? expectProjectOk<Answer>(res, "cannot propose the learning", project) : expectOk<Answer>(res, "cannot propose the learning");
  printResult({ ...answer }, () => rememberText(answer, project));
  return EXIT.ok;
}

function rememberText(answer: Answer, project: CommandProject | null): string {
  if (answer.merged === "learning" && answer.learning) return `Already known, nothing stored: learning ${answer.learning.id} says ${JSON.stringify(answer.learning.content)}.`;
  const p = answer.proposal!;
  const where = project ? `project ${project.slug}` : "your personal learnings (no project of yours matches this repository)";
  if (answer.merged === "proposal") return `Merged into pending proposal ${p.id} (proposed ${p.mergedCount + 1} times), for ${where}.`;
  return `Proposed for review: ${p.id} (${p.kind}) for ${where}. Later sessions get it once someone accepts it on the dashboard's Proposals page.`;
}
