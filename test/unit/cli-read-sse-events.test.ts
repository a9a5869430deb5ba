import { describe, expect, it } from "vitest";
import { readSseEvents } from "@/cli/src/mcp/read-sse-events";

describe("readSseEvents", () => {
  const streamOf = (chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
        controller.close();
      },
    });
  const read = async (chunks: string[]) => {
    const events = [];
    for await (const e of readSseEvents(streamOf(chunks))) events.push(e);
    return events;
  };

  it.each([
    { name: "LF lines", chunks: ["data: a\n\ndata: b\n\n"], events: [{ event: "message", data: "a" }, { event: "message", data: "b" }] },
    { name: "CRLF split across chunks", chunks: ["data: a\r", "\n\r", "\ndata: b\r\n\r\n"], events: [{ event: "message", data: "a" }, { event: "message", data: "b" }] },
    { name: "CR alone", chunks: ["data: a\r\rdata:b\r\r"], events: [{ event: "message", data: "a" }, { event: "message", data: "b" }] },
    { name: "several data lines, comments, ids, event types", chunks: [": hi\nid: 4\nevent: ping\ndata: x\ndata:  y\n\n"], events: [{ event: "ping", data: "x\n y" }] },
    { name: "a last event without its blank line", chunks: ["data: a\n\ndata: b"], events: [{ event: "message", data: "a" }, { event: "message", data: "b" }] },
    { name: "no data, no event", chunks: ["event: x\n\n: only a comment\n\n"], events: [] },
  ])("$name", async ({ chunks, events }) => {
    expect(await read(chunks)).toEqual(events);
  });

  it("a multi-byte character split across chunks", async () => {
    const bytes = new TextEncoder().encode('data: {"t":"é€"}\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i++) controller.enqueue(bytes.subarray(i, i + 1));
        controller.close();
      },
    });
    const events = [];
    for await (const e of readSseEvents(stream)) events.push(e);
    expect(events).toEqual([{ event: "message", data: '{"t":"é€"}' }]);
  });
});
