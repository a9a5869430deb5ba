import type { CallToolResult } from "@modelcontextprotocol/client";

/** The tools every token is offered, and those only a write token is. */
export const READING_TOOLS = ["get_task_memory", "search_learnings"];
export const WRITING_TOOLS = ["complete_session", "pickup_session", "pin_learning", "propose_learning", "release_session", "set_task_memory", "write_handoff"];
export const ALL_TOOLS = [...READING_TOOLS, ...WRITING_TOOLS].sort();

/** A tool result's text content, joined. */
export const toolText = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
