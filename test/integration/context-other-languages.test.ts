import { beforeAll, describe, expect, it } from "vitest";
import { testWorld } from "../support/world";

// A team that writes in other languages than English (a tester's probe): their everyday words ("la",
// "die", "de", "и") are as common to them as "the" is in English, but a store holds few of their
// learnings, so those words weighed as rare ones and an unrelated prompt in the same language got a
// learning it shares only them with. A prompt about the learning still finds it.

const world = testWorld({ users: ["ana"], projects: { kiwi: "ana" }, members: [], tokens: {} });
const ana = world.as("ana");

const LEARNINGS = [
  "Die Größe der Bilder wird beim Upload auf 2 MB begrenzt, größere lehnt der Server ab.",
  "La migration de la base de données se lance avec make migrate avant le déploiement.",
  "La migración de la base de datos se ejecuta con make migrate antes del despliegue, para todos los entornos.",
  "Тесты интеграции запускаются только после docker compose up, иначе база недоступна.",
  "İstanbul ofisinin VPN ayarları IT ekibinde tutulur.",
  "Release builds are signed in CI only; local builds use the debug keystore.",
  "The search index is rebuilt nightly from the replica, never from the primary.",
];

type Prompted = { learningsShown: number; context: string };
const prompt = async (sessionId: string, q: string): Promise<Prompted> => {
  const res = await ana("GET", `/api/context/prompt?${new URLSearchParams({ sessionId, project: "kiwi", q, format: "json" })}`);
  expect(res.status, res.text).toBe(200);
  return res.json as Prompted;
};

beforeAll(async () => {
  for (const content of LEARNINGS) expect((await ana("POST", "/api/learnings", { kind: "insight", content, project: "kiwi", confirmed: true })).status).toBe(201);
});

describe("prompts in other languages than English", () => {
  it.each([
    ["French", "Le chat dort avec le chien."],
    ["German", "Die Katze schläft auf dem Sofa und ist sehr müde."],
    ["Spanish", "¿Para qué sirven los gatos del vecino?"],
    ["Russian", "Я только что пришёл после работы."],
  ])("an unrelated prompt in %s gets nothing: its everyday words are no match", async (_language, q) => {
    const got = await prompt(`unrelated-${q.length}`, q);
    expect(got.learningsShown, got.context).toBe(0);
  });

  it.each([
    ["German", "Wie groß dürfen die Bilder beim Upload sein?", "Die Größe der Bilder"],
    ["French", "comment lancer la migration avant le déploiement ?", "La migration de la base de données"],
    ["Spanish", "¿cómo se ejecuta la migración antes del despliegue?", "La migración de la base de datos"],
    ["Russian", "почему тесты интеграции падают без docker?", "Тесты интеграции"],
  ])("a prompt about a learning in %s still finds it", async (_language, q, learning) => {
    const got = await prompt(`related-${q.length}`, q);
    expect(got.context).toContain(learning);
  });

  it.each([
    ["a Turkish capital İ, as the learning spells it", "İstanbul", "İstanbul ofisinin"],
    ["an accent typed as a letter and a combining mark (macOS)", "de\u0301ploiement", "La migration de la base"],
  ])("a search with %s finds the learning", async (_what, q, learning) => {
    const found = await ana("GET", `/api/learnings?${new URLSearchParams({ q, project: "kiwi" })}`);
    expect(found.status).toBe(200);
    const items = (found.json as { items: { content: string }[] }).items.map((l) => l.content);
    expect(items).toHaveLength(1);
    expect(items[0]).toContain(learning);
    const start = await ana("GET", `/api/context?${new URLSearchParams({ project: "kiwi", q, format: "text" })}`);
    expect(start.text).toMatch(/^## Relevant learnings/m);
    expect(start.text.split("\n").find((line) => line.startsWith("- "))).toContain(learning);
  });

  it("a session start whose hints are everyday words of another language lists recent learnings, not 'relevant' ones", async () => {
    const res = await ana("GET", `/api/context?${new URLSearchParams({ project: "kiwi", q: "Die Katze ist auf dem Sofa", format: "text" })}`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^## Recent learnings/m);
    expect(res.text).not.toMatch(/^## Relevant learnings/m);
  });
});
