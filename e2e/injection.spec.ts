import { expect, snap, test, unique } from "./fixtures";
import { Api } from "./seed";

test.describe("context injection", () => {
  test("an owner pauses a project's injection on its settings page: its context is empty until resumed", async ({ page }, testInfo) => {
    const slug = unique("quiet");
    const api = new Api();
    await api.project(slug, "Quiet project");
    await api.handoff(slug, { markdown: "Did: the quiet part." });
    expect(await api.context({ project: slug })).toMatchObject({ injection: "on" });

    await page.goto(`/settings/projects/${slug}`);
    const section = page.getByRole("region", { name: "Context injection" });
    await expect(section.getByTestId("injection-state")).toHaveText(/^On: /);
    await section.getByRole("button", { name: "Pause injection" }).click();
    await expect(section.getByTestId("injection-state")).toHaveText(/^Paused: session-start hooks in this project inject nothing/);
    await snap(page, testInfo, "settings-injection-paused");
    expect(await api.context({ project: slug })).toMatchObject({ injection: "paused", context: "", sections: [] });

    await section.getByRole("button", { name: "Resume injection" }).click();
    await expect(section.getByTestId("injection-state")).toHaveText(/^On: /);
    const resumed = await api.context({ project: slug });
    expect(resumed).toMatchObject({ injection: "on" });
    expect(resumed.context).toContain("Did: the quiet part.");
  });
});
