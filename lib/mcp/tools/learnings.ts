import "server-only";
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { producedByFields } from "../../api/zod-fields";
import { defuseLine } from "../../context/pack/fence";
import { writtenBy } from "../../context/pack/learning-line";
import type { LearningRow } from "../../db/queries/learnings";
import { learningOut } from "../../learnings/learning-schemas";
import { editLearning, listLearnings } from "../../learnings/learnings";
import { provenanceOf, provenanceText } from "../../learnings/provenance";
import { slugSchema } from "../../projects/project-schemas";
import { proposalOutSchema } from "../../proposals/proposal-schemas";
import { propose } from "../../proposals/proposals";
import { KIND_INFO, LEARNING_KINDS, MAX_CONTENT_CHARS, MAX_QUERY_CHARS, SOURCE_DEFAULTS } from "../../rules";
import { toolText } from "../mcp-errors";
import type { McpEnv } from "../mcp-env";
import { IDEMPOTENT_WRITES, READS, registerTool, WRITES } from "../register-tool";

/**
 * What a learning is for and what makes a good one, said to the agent in the server's instructions and
 * propose_learning's description: a later session starts with what it says, so it must be worth knowing
 * and true beyond this session.
 */
export const LEARNING_GUIDE =
  "A learning is what a later session should know before it starts, so that nobody has to teach it again: a correction the user made (\"this repo uses pnpm, not npm\"), a fix that took effort (the failing command, its cause, what fixed it), a decision and its reason, or a fact about the code or environment that is not obvious from reading it. Not one-off orders (\"now run the tests\"), guesses or approaches that were abandoned, or what the code or its docs already say. Write it as one self-contained statement, with the reason where there is one.";

const kindSchema = z.enum(LEARNING_KINDS).describe(`${LEARNING_KINDS.map((kind) => `${kind}: ${KIND_INFO[kind].meaning}`).join("; ")}.`);
const projectSchema = slugSchema.describe("Project slug, e.g. web (see the baton://context/{project} resources for yours).");

const searchInput = z.object({
  query: z.string().trim().max(MAX_QUERY_CHARS).optional().describe("Words to search for (full text over content and tags, best match first). Omit for the most recent."),
  kind: kindSchema.optional(),
  project: projectSchema.optional().describe("Only this project's learnings. Omit for your personal ones and every project's you may read."),
  limit: z.number().int().min(1).max(100).default(10).describe("How many to return (1–100, default 10)."),
  cursor: z.string().max(500).optional().describe("nextCursor of a previous call, for the next page."),
});

const proposeInput = z.object({
  kind: kindSchema,
  content: z.string().trim().min(1).max(MAX_CONTENT_CHARS).describe("The learning itself, one self-contained statement."),
  project: projectSchema.optional().describe("Project it belongs to; omit for a personal learning."),
  confidence: z.number().min(0).max(1).default(0.5).describe("How sure you are, 0..1 (default 0.5)."),
  source: z.string().trim().min(1).max(200).default(SOURCE_DEFAULTS.mcp).describe("Where it comes from, e.g. your session id (default mcp)."),
  agent: producedByFields.agent.describe("The coding agent you are, shown to its reviewer."),
  model: producedByFields.model.describe("The model you run on, e.g. gpt-5.1."),
});

const pinInput = z.object({
  id: z.string().trim().min(1).max(100).describe("The learning's id, as search_learnings shows it."),
  pinned: z.boolean().default(true).describe("true (default) pins it; false unpins it."),
});

/** A learning as search_learnings lists it; a teammate's names its writer and a stale one its age, as the context does; then where it came from. */
function learningLine(l: LearningRow, reader: string, now: Date): string {
  const writer = writtenBy(l.userId !== reader ? { name: l.author } : undefined, l.createdAt, now);
  const facts = [l.kind, l.project ?? "personal", l.confirmed ? "confirmed" : "unconfirmed", l.pinned ? "pinned" : null, ...writer].filter(Boolean);
  // A superseded learning is still found, marked, with what replaced it: agents must not act on it.
  const superseded = l.supersededAt
    ? ` — superseded${l.supersededBy ? ` by ${l.supersededBy}` : ""}${l.supersededByContent ? `: ${JSON.stringify(defuseLine(l.supersededByContent))}` : ""}, no longer in use`
    : "";
  // One line after the list marker, delimiters defused: a teammate's learning cannot pass for this answer's text.
  // Its provenance follows, indented under it: names and session ids come from people and clients too.
  return `- [${facts.join(" · ")}] ${defuseLine(l.content)} (id ${l.id})${superseded}\n  ${defuseLine(provenanceText(provenanceOf(l)))}`;
}

export function registerLearningTools(server: McpServer, env: McpEnv): void {
  registerTool(
    server,
    "search_learnings",
    {
      title: "Search learnings",
      description:
        "Searches what has been learned in past sessions (patterns, insights, self-knowledge) in your personal learnings and your projects'. Use it before deciding how to do something the team may already have settled, or when the session-start context mentions more learnings than it shows. Superseded learnings are listed too, marked with what replaced them: do not act on those.",
      inputSchema: searchInput,
      annotations: READS,
    },
    async (args) => {
      const page = await listLearnings(env.db, env.principal, { q: args.query, kind: args.kind, project: args.project, limit: args.limit, cursor: args.cursor });
      const n = `${page.items.length} ${page.items.length === 1 ? "learning" : "learnings"}`;
      const heading = args.query ? `${n} matching ${JSON.stringify(args.query)}, best first` : `${n}, most recent first`;
      const more = page.nextCursor ? `\nMore: call again with cursor ${JSON.stringify(page.nextCursor)}.` : "";
      const now = new Date();
      const lines = page.items.map((l) => learningLine(l, env.principal.userId, now));
      const text = page.items.length ? `${heading}:\n${lines.join("\n")}${more}` : args.query ? `No learnings match ${JSON.stringify(args.query)}.` : "No learnings found.";
      return toolText(text, { items: page.items.map((l) => learningOut(l)), nextCursor: page.nextCursor });
    },
  );
}

/** Writing tools: registered only for tokens with the write scope. */
export function registerLearningWriteTools(server: McpServer, env: McpEnv): void {
  registerTool(
    server,
    "propose_learning",
    {
      title: "Propose a learning",
      description:
        `Proposes a learning for a person to review in the dashboard (accept, edit or reject), marked as proposed by the agent; accepted ones reach every later session's context in this project (or yours, when personal). ${LEARNING_GUIDE} A near-duplicate of a pending proposal raises its confidence instead; one of an existing learning stores nothing.`,
      inputSchema: proposeInput,
      // Not idempotent: the same proposal again raises the pending one's confidence (a retried call counts twice).
      annotations: WRITES,
    },
    async (args) => {
      const result = await propose(env.db, env.principal, { ...args, method: "agent" });
      if (result.merged === "learning") {
        const l = result.learning;
        return toolText(`Already known, nothing stored: learning ${l.id} says ${JSON.stringify(defuseLine(l.content))}.`, {
          merged: "learning",
          learning: learningOut(l),
        });
      }
      const p = result.proposal;
      const where = p.project ? `project ${p.project}` : "your personal learnings";
      const text = result.merged
        ? `Merged into pending proposal ${p.id} (proposed ${p.mergedCount + 1} times, confidence now ${p.confidence.toFixed(2)}), for ${where}.`
        : `Proposed for review: ${p.id} (${p.kind}, confidence ${p.confidence.toFixed(2)}) for ${where}; pending until someone accepts or rejects it.`;
      return toolText(text, { merged: result.merged, proposal: proposalOutSchema.parse(p) });
    },
  );
  registerTool(
    server,
    "pin_learning",
    {
      title: "Pin or unpin a learning",
      description:
        "Pins a learning so it is in every session-start context of its project (or, a personal one, of all your sessions), ahead of the ranked learnings; or unpins it (pinned: false). Use it when the user says something must always be kept in mind. Needs write access to the learning's project; a pinned learning that is superseded is not injected.",
      inputSchema: pinInput,
      annotations: IDEMPOTENT_WRITES,
    },
    async (args) => {
      const l = await editLearning(env.db, env.principal, args.id, { pinned: args.pinned });
      const where = l.project ? `every context of project ${l.project}` : "every context of yours";
      const text = l.pinned ? `Pinned: learning ${l.id} is now in ${where}, ahead of the ranked learnings.` : `Unpinned: learning ${l.id} is ranked like any other again.`;
      return toolText(text, { learning: learningOut(l) });
    },
  );
}
