import type { Browser, Page } from "@playwright/test";
import { ADMIN_STATE, expect, snap, test, unique } from "./fixtures";
import { Api, createUser, signedInPage, type TestUser } from "./seed";

/**
 * The HTML the admin gets for a page, served to another browser in place of its own: its forms carry
 * the admin's server action ids and fields, so submitting them asks the server to do, as the other
 * user, what only the admin may. The server action must refuse on its own.
 */
async function forgeAdminPage(browser: Browser, viewer: Page, path: string): Promise<void> {
  const admin = await browser.newContext({ storageState: ADMIN_STATE });
  const html = await (await admin.request.get(path)).text();
  await admin.close();
  await viewer.route(
    (url) => url.pathname + url.search === path,
    (route) => (route.request().method() === "GET" ? route.fulfill({ body: html, contentType: "text/html" }) : route.continue()),
  );
  await viewer.goto(path);
}

test.describe.serial("a viewer", () => {
  let viewer: TestUser;
  let slug: string;
  let proposalId: string;
  let learningId: string;
  const api = () => new Api();

  test.beforeAll(async () => {
    viewer = createUser("vi");
    slug = unique("viewed");
    await api().project(slug, "Viewed project");
    proposalId = await api().propose({ content: `${slug} viewers may read proposals`, project: slug, confidence: 0.7 });
    learningId = await api().learning({ content: `${slug} viewers may read learnings`, project: slug, confirmed: false });
    await api().handoff(slug, { markdown: "A handoff the viewer reads.", branch: "main" });
  });

  test("invited as a viewer through the members page, accepts, reads everything and can change nothing", async ({ page, browser }, testInfo) => {
    // The owner invites them with the viewer role; they accept on their home page.
    await page.goto(`/settings/projects/${slug}`);
    const members = page.getByRole("region", { name: "Members" });
    await members.getByLabel("Email").fill(viewer.email);
    await members.getByLabel("Role", { exact: true }).selectOption("viewer");
    await members.getByRole("button", { name: "Invite" }).click();
    await expect(members.getByRole("status")).toContainText(`Invitation sent to ${viewer.email}.`);

    const vp = await signedInPage(browser, viewer);
    await vp.goto("/");
    await vp.getByRole("table", { name: "Invitations" }).getByRole("button", { name: `Accept ${slug}` }).click();
    await expect(vp.getByRole("table", { name: "Invitations" })).toHaveCount(0);
    await expect(vp.getByRole("row").filter({ hasText: slug })).toContainText("viewer");

    // Proposals: visible, marked view only, no buttons, and the keys do nothing.
    await vp.goto(`/proposals?project=${slug}`);
    await expect(vp.getByTestId("review-queue")).toHaveAttribute("data-ready", "true");
    const row = vp.getByRole("listitem").filter({ hasText: "viewers may read proposals" });
    await expect(row).toContainText("view only");
    await expect(row.getByRole("button")).toHaveCount(0);
    await expect(row.getByRole("checkbox")).toHaveCount(0);
    await vp.keyboard.press("a");
    await expect(vp.getByTestId("queue-status")).toContainText("your role in its project is viewer");
    await vp.keyboard.press("r");
    await snap(vp, testInfo, "viewer-proposals");

    // Learnings: readable, not editable.
    await vp.goto(`/learnings?project=${slug}`);
    const card = vp.getByTestId("learning").filter({ hasText: "viewers may read learnings" });
    await expect(card).toContainText(`View only: your role in ${slug} is viewer.`);
    await expect(card.getByRole("button")).toHaveCount(0);
    await expect(vp.getByRole("region", { name: "Add a learning" }).getByLabel("Shared with").locator("option")).toHaveText(["Only me (personal)"]);

    // Project pages read fine; settings show no forms.
    await vp.goto(`/projects/${slug}/handoffs`);
    await expect(vp.getByTestId("handoff")).toContainText("A handoff the viewer reads.");
    await vp.goto(`/settings/projects/${slug}`);
    await expect(vp.getByTestId("your-role")).toHaveText("viewer");
    // Leaving is the one thing a viewer may do here.
    await expect(vp.getByRole("button")).toHaveText(["Sign out", `Leave ${slug}`]);
    await expect(vp.getByRole("table", { name: "Members" })).toContainText(viewer.email);
    await snap(vp, testInfo, "viewer-project-settings");

    // The API says no as well.
    const theirs = new Api(viewer.token);
    await theirs.call("POST", `/api/proposals/${proposalId}/accept`, {}, [403]);
    await theirs.call("PATCH", `/api/learnings/${learningId}`, { confirmed: true }, [403]);
    await theirs.call("POST", "/api/learnings", { kind: "insight", content: "sneaky", project: slug }, [403]);
    await vp.context().close();

    expect(await api().proposalStatus(proposalId, slug)).toBe("pending");
    const learning = await api().call<{ learning: { confirmed: boolean } }>("GET", `/api/learnings/${learningId}`);
    expect(learning.learning.confirmed).toBe(false);
  });

  test("the server actions refuse a viewer even when sent the owner's forms", async ({ browser }) => {
    // Signed in as the viewer, then without JavaScript: each form posts to its server action natively.
    const signedIn = await signedInPage(browser, viewer);
    const state = await signedIn.context().storageState();
    await signedIn.context().close();
    const vp = await (await browser.newContext({ storageState: state, javaScriptEnabled: false })).newPage();
    const submit = async (click: () => Promise<void>) => {
      const posted = vp.waitForResponse((r) => r.request().method() === "POST");
      await click();
      await posted;
    };

    // A proposal's accept form, posted by the viewer.
    await forgeAdminPage(browser, vp, `/proposals?project=${slug}`);
    await submit(() => vp.getByRole("listitem").filter({ hasText: "viewers may read proposals" }).getByRole("button", { name: "Accept", exact: true }).click());
    expect(await api().proposalStatus(proposalId, slug)).toBe("pending");

    // A learning's delete and confirm forms.
    await forgeAdminPage(browser, vp, `/learnings?project=${slug}`);
    const card = vp.getByTestId("learning").filter({ hasText: "viewers may read learnings" });
    await submit(() => card.getByRole("button", { name: "Confirm" }).click());
    await forgeAdminPage(browser, vp, `/learnings?project=${slug}`);
    await card.getByText("Delete…").click();
    await submit(() => card.getByRole("button", { name: "Delete learning" }).click());
    const learning = await api().call<{ learning: { confirmed: boolean } }>("GET", `/api/learnings/${learningId}`);
    expect(learning.learning.confirmed).toBe(false);

    // The owner's member form: the viewer tries to make themselves owner.
    await forgeAdminPage(browser, vp, `/settings/projects/${slug}`);
    const row = vp.getByRole("table", { name: "Members" }).getByRole("row").filter({ hasText: viewer.email });
    await row.getByLabel(`Role of ${viewer.email}`).selectOption("owner");
    await submit(() => row.getByRole("button", { name: "Change role" }).click());
    const mine = await new Api(viewer.token).call<{ project: { role: string } }>("GET", `/api/projects/${slug}`);
    expect(mine.project.role).toBe("viewer");

    // The control: the same forged form does work once the owner makes them a member, so the refusals
    // above were the actions' own authorization, not a form that never reached its action.
    const admin = await (await browser.newContext({ storageState: ADMIN_STATE })).newPage();
    await admin.goto(`/settings/projects/${slug}`);
    const adminRow = admin.getByRole("table", { name: "Members" }).getByRole("row").filter({ hasText: viewer.email });
    await adminRow.getByLabel(`Role of ${viewer.email}`).selectOption("member");
    await adminRow.getByRole("button", { name: "Change role" }).click();
    await expect.poll(async () => (await new Api(viewer.token).call<{ project: { role: string } }>("GET", `/api/projects/${slug}`)).project.role).toBe("member");
    await admin.context().close();
    await forgeAdminPage(browser, vp, `/proposals?project=${slug}`);
    await submit(() => vp.getByRole("listitem").filter({ hasText: "viewers may read proposals" }).getByRole("button", { name: "Accept", exact: true }).click());
    await expect.poll(() => api().proposalStatus(proposalId, slug)).toBe("accepted");
    await vp.context().close();
  });
});
