import type { z } from "zod";
import { ApiError } from "./errors";
import { nulRefused, parseJsonBody } from "./json-body";

const JSON_TYPE = /^application\/(.+\+)?json\b/i;

/**
 * Reads a JSON body within a byte limit and parses it with a zod schema. Over the limit → 413; not
 * JSON → 415 or 400; a NUL in it → 400, a lone surrogate read as U+FFFD (lib/api/json-body.ts); wrong
 * shape → 400 with the zod issues. A route whose body may be left out says
 * `optional`: an empty body (no bytes, or blanks) is then `undefined` for the schema, whatever
 * Content-Type came with it, since clients send JSON's type on every request, with or without a body.
 */
export async function parseBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  maxBytes: number,
  options: { optional?: boolean } = {},
): Promise<z.output<S>> {
  const isJson = JSON_TYPE.test(request.headers.get("content-type") ?? "");
  if (!isJson && !options.optional) throw unsupportedType();
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readLimited(request, maxBytes);
  if (options.optional && text.trim() === "") return schema.parse(undefined);
  if (!isJson) throw unsupportedType();
  let body: ReturnType<typeof parseJsonBody>;
  try {
    body = parseJsonBody(text);
  } catch {
    throw new ApiError("bad_request", "The body is not valid JSON.");
  }
  if (body.hasNul) throw nulRefused();
  return schema.parse(body.value);
}

function unsupportedType(): ApiError {
  return new ApiError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json.");
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
