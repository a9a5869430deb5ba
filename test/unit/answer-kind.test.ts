import { describe, expect, it } from "vitest";
import { answerKind, type ApiResponse } from "../../cli/src/http/api-client";

const answer = (status: number, json: unknown, contentType = "application/json"): ApiResponse => ({ status, json, text: JSON.stringify(json), server: "https://baton.example", contentType });
const batonError = (status: number) => answer(status, { ok: false, error: { code: "x", message: "refused" } });
const page = (status: number) => ({ ...answer(status, null, "text/html"), text: "<html>Sign in</html>" });

// The one rule a hook's delivery and the spool's flush both follow (cli/src/hooks/deliver.ts, spool.ts).
describe("answerKind", () => {
  it("Baton's success is sent; a 2xx that is not Baton's JSON is not Baton's", () => {
    expect(answerKind(answer(201, { ok: true, handoff: {} }))).toBe("sent");
    expect(answerKind(page(200))).toBe("not-baton");
    expect(answerKind(answer(200, { ok: false }))).toBe("not-baton");
    expect(answerKind(answer(200, [1]))).toBe("not-baton");
  });

  it("Baton's own 4xx for the request is refused for good; a gateway's 4xx page is not Baton's", () => {
    for (const status of [400, 403, 404, 409, 413, 422]) expect(answerKind(batonError(status))).toBe("refused");
    for (const status of [403, 404, 401]) expect(answerKind(page(status))).toBe("not-baton");
  });

  it("what a resend may change is retried: 5xx, a timeout, a rate limit, a token refused outright", () => {
    for (const status of [401, 408, 429]) expect(answerKind(batonError(status))).toBe("retry");
    for (const status of [500, 502, 503]) expect(answerKind(page(status))).toBe("retry");
    expect(answerKind(batonError(503))).toBe("retry");
  });
});
