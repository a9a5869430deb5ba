import { searchWords } from "../../learnings/fts-query";

/**
 * Words of a conversation that say nothing about its subject. BM25 weighs common words down, but
 * a small store may hold "please" or "could" once, and one such word must not make a match.
 */
const CHAT_WORDS = new Set(
  "please thanks thank hi hello hey ok okay sure can could would should shall may might must let lets want wanted need needs like just also now then again here still really very much more some any all every get got make made look see check think know tell show give go going want try".split(" "),
);

/** As many words as the start stage searches its hints for. */
const MAX_PROMPT_TERMS = 32;

/**
 * The prompt's words worth searching for, in order, without conversational filler. Not the start
 * stage's hint filter: "merge", "feature" or "task" name a branch's kind but a prompt's subject.
 */
export function promptTerms(prompt: string): string[] {
  return searchWords(prompt, MAX_PROMPT_TERMS * 2)
    .filter((w) => !CHAT_WORDS.has(w))
    .slice(0, MAX_PROMPT_TERMS);
}
