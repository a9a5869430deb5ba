/**
 * The lines of a context's learnings section (`## Relevant learnings (N/M)` or `## Recent learnings`): a
 * learning's line is `- content (facts)`, so it is told from the task memory's `- [ ] …` and the
 * proposals' index by the section it is in.
 */
export function learningSectionLines(context: string): string[] {
  const section = /^## (?:Relevant|Recent) learnings[^\n]*\n((?:- [^\n]*(?:\n|$))*)/m.exec(context)?.[1] ?? "";
  return section.split("\n").filter((line) => line.startsWith("- "));
}
