import { createServer } from "node:http";
import { listening, readBody } from "../model-double";

/**
 * A local stand-in for the Gemini API (`generativelanguage.googleapis.com/v1beta`), for running the real
 * Gemini CLI offline (GOOGLE_GEMINI_BASE_URL): `models/<m>:streamGenerateContent?alt=sse` answers with
 * scripted function calls, then text, as server-sent events; every request is kept so that a test can
 * read what Gemini CLI would have sent to the model (contents, system instruction, tools).
 */

/** One model turn: a call of one of the tools Gemini CLI declared (write_file, run_shell_command, …), or the final text. */
export type GeminiStep = { call: string; args: Record<string, unknown> } | { text: string };

export type GeminiRequest = { path: string; body: { contents?: GeminiContent[]; tools?: { functionDeclarations?: { name: string }[] }[] } & Record<string, unknown> };
type GeminiContent = { role?: string; parts?: { text?: string; functionCall?: unknown; functionResponse?: unknown }[] };

export type GeminiDouble = {
  /** For GOOGLE_GEMINI_BASE_URL. */
  url: string;
  /** The generateContent requests received so far, streamed or not. */
  requests: GeminiRequest[];
  stop: () => Promise<void>;
};

/**
 * Which step of the script a request is at: the number of model turns since the user's last prompt (a
 * user content with text; a tool's answer comes back as a user content of functionResponse parts). The
 * double keeps no state, so a retried request gets the same answer.
 */
function stepOf(contents: GeminiContent[]): number {
  let turns = 0;
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = contents[i]!;
    if (content.role === "model") turns++;
    else if (content.parts?.some((p) => typeof p.text === "string")) break;
  }
  return turns;
}

function answer(step: GeminiStep, model: string) {
  const part = "call" in step ? { functionCall: { name: step.call, args: step.args } } : { text: step.text };
  return {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: model,
  };
}

/** `script`: the turns of every prompt, in order; past its end the last step is repeated (end it with text). */
export async function startGeminiDouble(script: GeminiStep[]): Promise<GeminiDouble> {
  const requests: GeminiRequest[] = [];
  const server = createServer(async (req, res) => {
    const url = req.url ?? "";
    const body = await readBody(req);
    const model = /models\/([^:/?]+)/.exec(url)?.[1] ?? "gemini-double";
    if (req.method === "POST" && url.includes(":countTokens")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ totalTokens: 10 }));
      return;
    }
    if (req.method !== "POST" || !/:(stream)?[gG]enerateContent/.test(url)) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: 404, message: "not in the double", status: "NOT_FOUND" } }));
      return;
    }
    requests.push({ path: url.split("?")[0]!, body: body as GeminiRequest["body"] });
    const contents = Array.isArray(body.contents) ? (body.contents as GeminiContent[]) : [];
    // Only the main agent's requests declare tools; anything else Gemini CLI asks on the side gets text.
    const step = Array.isArray(body.tools) && body.tools.length ? script[Math.min(stepOf(contents), script.length - 1)]! : { text: "ok" };
    const reply = JSON.stringify(answer(step, model));
    if (url.includes(":streamGenerateContent")) res.writeHead(200, { "content-type": "text/event-stream" }).end(`data: ${reply}\r\n\r\n`);
    else res.writeHead(200, { "content-type": "application/json" }).end(reply);
  });
  return listening(server, requests);
}
