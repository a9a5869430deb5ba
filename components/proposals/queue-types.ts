import type { SimilarLearning } from "@/lib/proposals/similar-learnings";
import type { EvidenceSpeaker, LearningKind } from "@/lib/rules";

/** A pending proposal as the review page hands it to the browser: plain, serialisable, nothing internal. */
export type QueueEntry = {
  id: string;
  kind: LearningKind;
  content: string;
  source: string;
  /** The agent (and model) that proposed it, worded on the server ("Codex CLI · gpt-5.1"); null when not said. */
  producedBy: string | null;
  /**
   * How it was found, when not read from the transcript by the extractor: the agent proposed it itself
   * (MCP's propose_learning, `baton remember`), or the summariser's model found it; null otherwise.
   */
  foundBy: { method: "agent" | "model"; label: string } | null;
  /** The kind of lesson as people read it ("resolved failure"); null when the proposer did not say. */
  lesson: string | null;
  /** The session lines it came from, oldest first; empty when none were sent. */
  evidence: EvidenceEntry[];
  confidence: number;
  mergedCount: number;
  project: string | null;
  createdAt: string;
  /** "3 h ago", rendered on the server so server and browser agree. */
  age: string;
  canDecide: boolean;
  /** Learnings of its scope it may supersede when accepted. */
  similar: SimilarLearning[];
};

export type Verdict = "accepted" | "rejected";

/** What the page has decided about an entry since it was loaded. */
export type Decision = {
  verdict: Verdict;
  /** True until the server has confirmed it. */
  saving: boolean;
  /** The text before an edit-then-accept; an undo puts it back. */
  originalContent?: string;
  /** The text accepted, when edited. */
  content?: string;
};

/** One evidence line as the queue shows it: its time worded on the server ("10:04 UTC"), so server and browser agree. */
export type EvidenceEntry = { turn: number; at: string | null; time: string | null; who: EvidenceSpeaker; text: string };
