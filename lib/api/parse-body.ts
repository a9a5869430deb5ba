import type { z } from "zod";
import { ApiError } from "./errors";

/**
 * Reads a JSON body within a byte limit and parses it with a zod schema. Over the limit → 413; not
 * JSON → 415 or 400; wrong shape → 400 with the zod issues.
 */
export async function parseBody<S extends z.ZodType>(request: Request, schema: S, maxBytes: number): Promise<z.output<S>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json.");
  }
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readLimited(request, maxBytes);
  let json: unknown;
  let hasNul = false;
  try {
    json = JSON.parse(text, (key, value: unknown) => {
      if ((typeof value === "string" && value.includes("\0")) || key.includes("\0")) hasNul = true;
      return value;
    });
  } catch {
    throw new ApiError("bad_request", "The body is not valid JSON.");
  }
  // SQLite text ends at a NUL: a stored document would come back silently cut. Refuse it outright.
  if (hasNul) throw new ApiError("bad_request", "The body contains a NUL character (\\u0000), which Baton cannot store.");
  return schema.parse(json);
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `The body is larger than the limit of ${maxBytes} bytes.`);
}

/** Reads the stream and stops as soon as the limit is passed, so a lying Content-Length cannot exhaust memory. */
async function readLimited(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
