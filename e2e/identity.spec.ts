import { BASE_URL, expect, snap, test } from "./fixtures";
import { Api, createUser, signedInPage } from "./seed";

type Seed = { seed: { identity: Record<string, unknown> } };

test.describe("identity page", () => {
  test("the context's setup line leads to it; it creates, edits and clears the seed's identity", async ({ browser }, testInfo) => {
    const ivy = createUser("ivy");
    const api = new Api(ivy.token);
    const before = await api.context({});
    const setupLine = `identity can be set in the dashboard: ${BASE_URL}/identity`;
    expect(before.context).toContain(setupLine);

    const page = await signedInPage(browser, ivy);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Identity" }).click();
    await expect(page).toHaveURL(`${BASE_URL}/identity`);
    await expect(page.getByRole("heading", { name: "Identity", level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: "Identity" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByText("No seed is stored yet")).toBeVisible();

    await page.getByLabel("AI name").fill("Juniper");
    await page.getByLabel("Your name").fill("Ivy");
    await page.getByLabel("Catchphrase").fill("Onwards.");
    await page.getByLabel("Voice id").fill("voice-7");
    await page.getByLabel("Response style").selectOption("concise");
    await page.getByLabel("Time zone").fill("Europe/Berlin");
    await page.getByLabel("Locale").fill("de-DE");
    await page.getByRole("button", { name: "Save identity" }).click();
    await expect(page.getByRole("status")).toHaveText("Identity saved. Agents get it at their next session start.");
    await snap(page, testInfo, "identity-saved");

    const saved = await api.call<Seed>("GET", "/api/seed");
    expect(saved.seed.identity).toEqual({
      aiName: "Juniper",
      principalName: "Ivy",
      catchphrase: "Onwards.",
      voiceId: "voice-7",
      preferences: { responseStyle: "concise", timezone: "Europe/Berlin", locale: "de-DE" },
    });
    const after = await api.context({});
    expect(after.context).toContain("AI name: Juniper · principal: Ivy");
    expect(after.context).not.toContain(setupLine);

    // A refused field: its error beside it, everything typed still there.
    await page.reload();
    await expect(page.getByLabel("AI name")).toHaveValue("Juniper");
    await page.getByLabel("AI name").fill("Juniper Two");
    await page.getByLabel("Locale").fill("x".repeat(40));
    await page.getByRole("button", { name: "Save identity" }).click();
    await expect(page.getByRole("alert").first()).toBeVisible();
    await expect(page.locator("#locale-error")).toBeVisible();
    await expect(page.getByLabel("AI name")).toHaveValue("Juniper Two");
    await expect(page.getByLabel("Locale")).toHaveValue("x".repeat(40));
    await snap(page, testInfo, "identity-refused");

    // Emptied optional fields are removed; unset response style too.
    await page.getByLabel("Locale").fill("");
    await page.getByLabel("Catchphrase").fill("");
    await page.getByLabel("Response style").selectOption("");
    await page.getByRole("button", { name: "Save identity" }).click();
    await expect(page.getByRole("status")).toHaveText(/Identity saved/);
    const cleared = await api.call<Seed>("GET", "/api/seed");
    expect(cleared.seed.identity).toEqual({ aiName: "Juniper Two", principalName: "Ivy", voiceId: "voice-7", preferences: { timezone: "Europe/Berlin" } });
    await page.context().close();
  });
});
