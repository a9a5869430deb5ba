import { ADMIN, expect, snap, test, unique } from "./fixtures";
import { Api, createUser, signedInPage } from "./seed";

// Membership by consent (issue 21): an owner's invitation waits on the invitee's home page until they
// accept or decline it there (plain forms, working without JavaScript); a member can leave.

test.describe("invitations", () => {
  test("the invitee accepts one and declines another on their home page, then leaves", async ({ page, browser }, testInfo) => {
    const joined = unique("joined");
    const refused = unique("refused");
    const admin = new Api();
    await admin.project(joined, "Joined project");
    await admin.project(refused, "Refused project");
    const bo = createUser("bo");
    for (const slug of [joined, refused]) {
      await page.goto(`/settings/projects/${slug}`);
      const form = page.getByRole("region", { name: "Members" });
      await form.getByLabel("Email").fill(bo.email);
      await form.getByRole("button", { name: "Invite" }).click();
      await expect(form.getByRole("status")).toContainText(`Invitation sent to ${bo.email}.`);
    }

    const bp = await signedInPage(browser, bo);
    await bp.goto("/");
    const invitations = bp.getByRole("table", { name: "Invitations" });
    await expect(invitations.getByRole("row").filter({ hasText: joined })).toContainText("member");
    await expect(invitations.getByRole("row").filter({ hasText: joined })).toContainText(ADMIN.email);
    await expect(bp.getByRole("link", { name: "Joined project" })).toHaveCount(0);
    await snap(bp, testInfo, "invitations-home");

    await invitations.getByRole("button", { name: `Decline ${refused}` }).click();
    await expect(invitations.getByRole("row").filter({ hasText: refused })).toHaveCount(0);
    await invitations.getByRole("button", { name: `Accept ${joined}` }).click();
    await expect(bp.getByRole("table", { name: "Invitations" })).toHaveCount(0);
    await expect(bp.getByRole("link", { name: "Joined project" })).toBeVisible();
    const mine = await new Api(bo.token).call<{ items: { slug: string; role: string }[] }>("GET", "/api/projects");
    expect(mine.items.map((p) => p.slug)).toContain(joined);
    expect(mine.items.map((p) => p.slug)).not.toContain(refused);

    // Leaving: back to the home page, the project gone from it.
    await bp.goto(`/settings/projects/${joined}`);
    await bp.getByRole("button", { name: `Leave ${joined}` }).click();
    await expect(bp).toHaveURL(/\/$/);
    await expect(bp.getByRole("link", { name: "Joined project" })).toHaveCount(0);
    await new Api(bo.token).call("GET", `/api/projects/${joined}`, undefined, [404]);
  });
});
