import path from "node:path";
import { pluginDir, writeAtomically } from "./plugin-hooks";

// opencode keeps its sessions in SQLite (~/.local/share/opencode/opencode.db), which Baton's CLI cannot
// read on Node 20, and `opencode export <id>` starts a whole opencode (seconds). So the plugin keeps
// each session's messages as opencode's events deliver them (every `message.updated` carries the whole
// message, every `message.part.updated` the whole part) and writes them to a file the stop and
// pre-compact hooks read: what `opencode export` prints ({info, messages: [{info, parts}]}), one line
// for the session's info, then one a message, so that the reader can take a huge session's end alone
// (transcript.ts reads this and export's output alike).

type Obj = Record<string, unknown>;
type Kept = { info: Obj | null; messages: Map<string, { info: Obj | null; parts: Map<string, Obj> }> };

const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);

export class SessionLog {
  private sessions = new Map<string, Kept>();

  private session(id: string): Kept {
    let kept = this.sessions.get(id);
    if (!kept) this.sessions.set(id, (kept = { info: null, messages: new Map() }));
    return kept;
  }

  private message(sessionId: string, messageId: string) {
    const messages = this.session(sessionId).messages;
    let message = messages.get(messageId);
    if (!message) messages.set(messageId, (message = { info: null, parts: new Map() }));
    return message;
  }

  /** Takes in one opencode event (others are ignored). */
  take(event: { type?: unknown; properties?: unknown }): void {
    const props = isObj(event.properties) ? event.properties : {};
    const info = isObj(props.info) ? props.info : null;
    const part = isObj(props.part) ? props.part : null;
    switch (event.type) {
      case "session.created":
      case "session.updated":
        if (info && str(info.id)) this.session(str(info.id)!).info = info;
        break;
      case "message.updated":
        if (info && str(info.sessionID) && str(info.id)) this.message(str(info.sessionID)!, str(info.id)!).info = info;
        break;
      case "message.part.updated":
        if (part && str(part.sessionID) && str(part.messageID) && str(part.id)) this.message(str(part.sessionID)!, str(part.messageID)!).parts.set(str(part.id)!, part);
        break;
      case "message.removed":
        if (str(props.sessionID) && str(props.messageID)) this.sessions.get(str(props.sessionID)!)?.messages.delete(str(props.messageID)!);
        break;
      case "message.part.removed":
        if (str(props.sessionID) && str(props.messageID) && str(props.partID)) this.sessions.get(str(props.sessionID)!)?.messages.get(str(props.messageID)!)?.parts.delete(str(props.partID)!);
        break;
    }
  }

  /** Messages read back from opencode (a resumed session's earlier turns); what events brought stays. */
  seed(sessionId: string, messages: unknown): void {
    if (!Array.isArray(messages)) return;
    for (const m of messages) {
      if (!isObj(m) || !isObj(m.info) || !str(m.info.id)) continue;
      const kept = this.message(sessionId, str(m.info.id)!);
      kept.info ??= m.info;
      for (const p of Array.isArray(m.parts) ? m.parts : []) if (isObj(p) && str(p.id) && !kept.parts.has(str(p.id)!)) kept.parts.set(str(p.id)!, p);
    }
  }

  /** Writes the session (a line for its info, one for each message) and gives the file's path. */
  write(sessionId: string): string {
    const kept = this.session(sessionId);
    // opencode's ids sort by creation time.
    const byId = <T>(map: Map<string, T>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
    const lines = [JSON.stringify({ info: kept.info ?? { id: sessionId } })];
    for (const m of byId(kept.messages)) if (m.info) lines.push(JSON.stringify({ info: m.info, parts: byId(m.parts) }));
    const file = path.join(pluginDir(), `${sessionId}.jsonl`);
    writeAtomically(file, lines.join("\n") + "\n");
    return file;
  }
}
