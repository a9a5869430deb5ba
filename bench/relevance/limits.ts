import { CLAUDE_CODE_MAX_CHARS } from "../../lib/rules";

export type Violation = { scenario: string; request: string; problem: string };

/** Every context the bench is given must fit its token budget and Claude Code's characters; misses are collected, not thrown. */
export class Limits {
  readonly violations: Violation[] = [];
  checked = 0;

  check(scenario: string, request: string, ctx: { context: string; tokenEstimate: number }, budget: number): void {
    this.checked++;
    if (ctx.tokenEstimate > budget) this.violations.push({ scenario, request, problem: `tokenEstimate ${ctx.tokenEstimate} > budget ${budget}` });
    if (ctx.context.length > CLAUDE_CODE_MAX_CHARS) {
      this.violations.push({ scenario, request, problem: `${ctx.context.length} characters > ${CLAUDE_CODE_MAX_CHARS}` });
    }
  }
}
