import { expect, snap, test, unique } from "./fixtures";
import { Api, createUser, signedInPage } from "./seed";

test.describe("audit trail", () => {
  test("an owner reaches it from the project and reads who deleted what, newest first", async ({ browser }, testInfo) => {
    const owner = createUser("oona");
    const api = new Api(owner.token);
    const slug = unique("audited");
    await api.project(slug, "Audited");
    const id = await api.learning({ kind: "pattern", content: "Rotate the staging keys every Monday before the deploy window opens", project: slug });
    await api.call("DELETE", `/api/learnings/${id}`);

    const page = await signedInPage(browser, owner);
    await page.goto(`/projects/${slug}`);
    await page.getByRole("link", { name: "Audit trail" }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${slug}/audit$`));
    await expect(page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Audit trail" })).toHaveAttribute("aria-current", "page");
    const table = page.getByRole("table", { name: "Audit trail, newest first" });
    const row = table.getByRole("row").filter({ hasText: "Rotate the staging keys" });
    await expect(row).toContainText("delete");
    await expect(row).toContainText(owner.name);
    await snap(page, testInfo, "audit-trail");
  });
});
