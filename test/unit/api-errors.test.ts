import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError, handleApiError } from "@/lib/api/errors";
import { parseBody } from "@/lib/api/parse-body";

const schema = z.object({ slug: z.string().min(2) });
const request = (body: string, type = "application/json") =>
  new Request("http://x/api", { method: "POST", body, headers: { "content-type": type } });

async function errorOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const res = handleApiError(error);
    return { status: res.status, body: await res.json() };
  }
  throw new Error("expected a rejection");
}

describe("parseBody and the error shape", () => {
  it.each([
    { name: "not JSON content type", req: request("{}", "text/plain"), status: 415, code: "unsupported_media_type" },
    { name: "broken JSON", req: request("{"), status: 400, code: "bad_request" },
    { name: "wrong shape", req: request('{"slug":1}'), status: 400, code: "validation_failed" },
    { name: "over the limit", req: request(JSON.stringify({ slug: "x".repeat(5000) })), status: 413, code: "payload_too_large" },
  ])("$name → $status $code", async ({ req, status, code }) => {
    const { status: got, body } = await errorOf(parseBody(req, schema, 2048));
    expect(got).toBe(status);
    expect(body).toMatchObject({ ok: false, error: { code } });
    expect(typeof body.error.message).toBe("string");
  });

  it("names the zod issue path", async () => {
    const { body } = await errorOf(parseBody(request('{"slug":"a"}'), schema, 2048));
    expect(body.error.issues[0].path).toEqual(["slug"]);
    expect(body.error.message).toContain("slug");
  });

  it("parses a good body", async () => {
    await expect(parseBody(request('{"slug":"ab"}'), schema, 2048)).resolves.toEqual({ slug: "ab" });
  });

  it("hides unexpected errors behind a 500 with no details", async () => {
    const original = console.error;
    console.error = () => {};
    const res = handleApiError(new Error("secret path /etc/x at line 3"));
    console.error = original;
    const body = await res.json();
    expect(res.status).toBe(500);
    expect(JSON.stringify(body)).not.toContain("/etc/x");
  });

  it("maps ApiError codes to statuses", () => {
    expect(handleApiError(new ApiError("conflict", "x")).status).toBe(409);
    expect(handleApiError(new ApiError("forbidden", "x")).status).toBe(403);
  });
});

describe("NUL characters", () => {
  it.each([
    ['{"slug":"ab\\u0000cd"}', true],
    ['{"slug":"ab\\\\u0000cd"}', false],
    ['{"slug":"abcd","x\\u0000":1}', true],
  ])("%s → refused: %s", async (body, refused) => {
    const result = parseBody(request(body), z.looseObject({ slug: z.string() }), 2048);
    if (refused) {
      const { status, body: err } = await errorOf(result);
      expect(status).toBe(400);
      expect(err.error.message).toContain("NUL");
    } else {
      await expect(result).resolves.toMatchObject({ slug: "ab\\u0000cd" });
    }
  });
});
