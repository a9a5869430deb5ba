import { expect, test } from "./api-fixtures";
import { ADMIN, BASE_URL, unique } from "./fixtures";
import { batonAdmin } from "./seed";

// The HTTP side of what the dashboard shows: the same proposals, reviews and context, with a token.

test("bulk review through the API: all decisions or none", async ({ api }) => {
  const slug = unique("api-review");
  expect((await api.post("/api/projects", { data: { slug, name: "API review" } })).status()).toBe(201);
  const ids: string[] = [];
  for (const word of ["one", "two", "three"]) {
    const res = await api.post("/api/proposals", { data: { kind: "pattern", content: `${word} ${slug} proposal through the api`, project: slug } });
    expect(res.status()).toBe(201);
    ids.push(((await res.json()) as { proposal: { id: string } }).proposal.id);
  }
  // One unknown id: the whole review is refused and nothing changes.
  const refused = await api.post("/api/proposals/review", { data: [{ id: ids[0], action: "accept" }, { id: "no-such-id", action: "reject" }] });
  expect(refused.status()).toBe(404);
  const pending = async () => ((await (await api.get(`/api/proposals?project=${slug}`)).json()) as { items: { id: string }[] }).items.map((p) => p.id).sort();
  expect(await pending()).toEqual([...ids].sort());

  const ok = await api.post("/api/proposals/review", { data: [{ id: ids[0], action: "accept", content: "edited through the api" }, { id: ids[1], action: "reject" }] });
  expect(ok.status()).toBe(200);
  expect(await pending()).toEqual([ids[2]]);
  const learnings = (await (await api.get(`/api/learnings?project=${slug}`)).json()) as { items: { content: string; confirmed: boolean }[] };
  expect(learnings.items).toMatchObject([{ content: "edited through the api", confirmed: true }]);
});

test("a read token may read the queue but not decide; no token may do neither", async ({ api, anonymous, playwright }) => {
  const slug = unique("api-read");
  await api.post("/api/projects", { data: { slug, name: "API read" } });
  const res = await api.post("/api/proposals", { data: { kind: "insight", content: `${slug} read tokens only read`, project: slug } });
  const id = ((await res.json()) as { proposal: { id: string } }).proposal.id;
  const readToken = batonAdmin(["create-token", "--email", ADMIN.email, "--name", "reader", "--scope", "read"]);
  const reader = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Authorization: `Bearer ${readToken}` } });
  try {
    const listed = await reader.get(`/api/proposals?project=${slug}`);
    expect(listed.status()).toBe(200);
    expect(((await listed.json()) as { items: { id: string }[] }).items.map((p) => p.id)).toEqual([id]);
    expect((await reader.post(`/api/proposals/${id}/accept`, { data: {} })).status()).toBe(403);
    expect((await reader.post("/api/proposals/review", { data: [{ id, action: "reject" }] })).status()).toBe(403);
  } finally {
    await reader.dispose();
  }
  expect((await anonymous.post(`/api/proposals/${id}/accept`, { data: {} })).status()).toBe(401);
  expect((await anonymous.get(`/api/proposals?project=${slug}`)).status()).toBe(401);
  const still = (await (await api.get(`/api/proposals?project=${slug}`)).json()) as { items: { id: string }[] };
  expect(still.items.map((p) => p.id)).toEqual([id]);
});
