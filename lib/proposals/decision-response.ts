import { learningOut } from "../learnings/learning-schemas";
import { proposalOutSchema } from "./proposal-schemas";
import type { DecisionResult } from "./proposals";

/** A review decision as the API returns it. */
export function decisionJson(result: DecisionResult) {
  return {
    proposal: proposalOutSchema.parse(result.proposal),
    learning: result.learning ? learningOut(result.learning) : null,
    superseded: result.superseded,
  };
}
