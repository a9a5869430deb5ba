import { randomBytes } from "node:crypto";
import { contextOf, runHook, startDetachedHook, type PluginHookInput, type PluginSettings } from "./plugin-hooks";
import { SessionLog } from "./plugin-transcript";

// Baton's opencode plugin, built by cli/build.mjs into cli/dist/opencode-plugin.js (served at
// /cli/opencode-plugin.js) and written by `baton install opencode` into
// ~/.config/opencode/plugins/baton.js with its settings baked in. opencode runs it inside its own
// process, so it maps opencode's plugin hooks onto Baton's CLI hooks:
//   first sight of a session     → session-start; its context goes into every system prompt of the session
//   chat.message (a user's turn) → prompt; its context joins the user's message as a synthetic part
//   experimental.session.compacting → pre-compact (a checkpoint, awaited), then session-start again
//                                   with source "compact" at session.compacted
//   session.idle (a turn's end)  → stop, detached: `opencode run` exits right after it, and opencode
//                                   has no session-end event a plugin could wait on
// Node built-ins only (no @opencode-ai/plugin, whose types alone it would need).

/** Replaced by `baton install opencode` with the JSON of PluginSettings; a copy fetched as served runs `baton` from PATH. */
const BAKED = "__BATON_SETTINGS__";
const DEFAULTS: PluginSettings = { command: "baton", limitsMs: { sessionStart: 30_000, prompt: 10_000, preCompact: 30_000 } };
const SETTINGS: PluginSettings = BAKED.startsWith("{") ? (JSON.parse(BAKED) as PluginSettings) : DEFAULTS;

/** opencode's session ids (ses_…) name Baton's files: anything else is not one. */
const SESSION_ID = /^[\w-]{1,200}$/;

type Part = Record<string, unknown> & { type?: unknown; text?: unknown; synthetic?: unknown };
type PluginInput = { directory: string; client?: { session?: { messages?: (options: { path: { id: string } }) => Promise<{ data?: unknown }> } } };

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
let partCounter = 0;

/** A part id as opencode makes them (prt_, 12 hex digits of time, 14 random base62), so it sorts after the user's own parts. */
function partId(): string {
  const time = ((BigInt(Date.now()) * 0x1000n + BigInt(++partCounter % 0x1000)) & 0xffffffffffffn).toString(16).padStart(12, "0");
  return `prt_${time}${[...randomBytes(14)].map((b) => BASE62[b % 62]).join("")}`;
}

const userText = (parts: unknown[]) =>
  (parts.filter((p) => !!p && typeof p === "object") as Part[])
    .filter((p) => p.type === "text" && !p.synthetic && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("\n");

/** What the plugin knows of each session of this opencode process. */
class Sessions {
  readonly log = new SessionLog();
  private created = new Set<string>();
  private dirs = new Map<string, string>();
  /** The session-start context of each session (a promise: the first model call may come while it runs). */
  private starts = new Map<string, Promise<string>>();
  model: string | undefined;

  constructor(private input: PluginInput) {}

  hookInput(sessionId: string, event: string, extra: Partial<PluginHookInput> = {}): PluginHookInput {
    return { session_id: sessionId, cwd: this.dirs.get(sessionId) ?? this.input.directory, hook_event_name: event, ...(this.model ? { model: this.model } : {}), ...extra };
  }

  /** The session's start context, the hook run once a session (again with `source` after a compaction). */
  start(sessionId: string, source?: string): Promise<string> {
    let started = this.starts.get(sessionId);
    if (!started || source) {
      const why = source ?? (this.created.has(sessionId) ? "startup" : "resume");
      if (why === "resume") this.seed(sessionId);
      started = runHook(SETTINGS, "session-start", this.hookInput(sessionId, "session-start", { source: why }), SETTINGS.limitsMs.sessionStart).then(contextOf);
      this.starts.set(sessionId, started);
    }
    return started;
  }

  /** A resumed session's earlier turns, for its transcript (best effort, not awaited). */
  private seed(sessionId: string): void {
    this.input.client?.session
      ?.messages?.({ path: { id: sessionId } })
      .then((answer) => this.log.seed(sessionId, answer?.data))
      .catch(() => {});
  }

  event(event: { type?: unknown; properties?: unknown }): void {
    this.log.take(event);
    const props = (event.properties ?? {}) as { sessionID?: unknown; info?: { id?: unknown; directory?: unknown } };
    const sessionId = typeof props.sessionID === "string" ? props.sessionID : typeof props.info?.id === "string" ? props.info.id : null;
    if (!sessionId || !SESSION_ID.test(sessionId)) return;
    if (event.type === "session.created") this.created.add(sessionId);
    if (typeof props.info?.directory === "string" && props.info.id === sessionId) this.dirs.set(sessionId, props.info.directory);
    // Synchronously, before anything is awaited: `opencode run` may exit as soon as this returns.
    if (event.type === "session.idle") startDetachedHook(SETTINGS, "stop", this.hookInput(sessionId, "stop", { transcript_path: this.log.write(sessionId) }));
    if (event.type === "session.compacted") void this.start(sessionId, "compact");
  }
}

/** The session a hook's first argument names, when it is one of opencode's ids (a missing one is none: never "undefined"). */
function sessionOf(call: unknown): string | null {
  const id = (call as { sessionID?: unknown } | null | undefined)?.sessionID;
  return typeof id === "string" && SESSION_ID.test(id) ? id : null;
}

type Output = { system?: unknown; message?: { id?: unknown; model?: { modelID?: unknown } }; parts?: unknown };

/**
 * Each of opencode's hooks, guarded: an input without the fields expected (another opencode version,
 * a call with no arguments) does nothing, and nothing a hook does ever throws into the session.
 */
const guarded =
  <A extends unknown[]>(body: (...args: A) => Promise<void> | void) =>
  async (...args: A): Promise<void> => {
    try {
      await body(...args);
    } catch {
      // a hook never breaks the session
    }
  };

export const BatonPlugin = async (input: PluginInput) => {
  const sessions = new Sessions(input);
  return {
    event: guarded((arg?: { event?: { type?: unknown; properties?: unknown } }) => {
      if (arg?.event && typeof arg.event === "object") sessions.event(arg.event);
    }),

    "experimental.chat.system.transform": guarded(async (call?: unknown, output?: Output) => {
      const sessionId = sessionOf(call);
      if (!sessionId || !Array.isArray(output?.system)) return;
      const context = await sessions.start(sessionId);
      if (context) output.system.push(context);
    }),

    "chat.message": guarded(async (call?: { model?: { modelID?: unknown } }, output?: Output) => {
      const sessionId = sessionOf(call);
      if (!sessionId) return;
      const modelId = call?.model?.modelID ?? output?.message?.model?.modelID;
      if (typeof modelId === "string") sessions.model = modelId;
      await sessions.start(sessionId);
      const parts = output?.parts;
      if (!Array.isArray(parts)) return;
      const prompt = userText(parts);
      if (!prompt) return;
      const context = contextOf(await runHook(SETTINGS, "prompt", sessions.hookInput(sessionId, "prompt", { prompt }), SETTINGS.limitsMs.prompt));
      const messageID = output?.message?.id ?? (parts[0] as Part | undefined)?.messageID;
      if (context && typeof messageID === "string") parts.push({ id: partId(), sessionID: sessionId, messageID, type: "text", text: context, synthetic: true });
    }),

    "experimental.session.compacting": guarded(async (call?: unknown) => {
      const sessionId = sessionOf(call);
      if (!sessionId) return;
      const transcript = sessions.log.write(sessionId);
      await runHook(SETTINGS, "pre-compact", sessions.hookInput(sessionId, "pre-compact", { transcript_path: transcript }), SETTINGS.limitsMs.preCompact);
    }),
  };
};
