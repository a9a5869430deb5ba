import type { Locator, Page } from "@playwright/test";
import { expect, snap, test, unique } from "./fixtures";
import { Api, createUser, signedInPage, type TestUser } from "./seed";

const doc = (id: string, title: string) => `---\nid: ${id}\n---\n# ${title}\n\nDo the thing.\n`;

/** Makes someone a member the one way there is, over the API: the owner (the admin) invites, they accept. */
async function addMember(slug: string, user: TestUser, role: "member" | "viewer") {
  await new Api().call("POST", `/api/projects/${slug}/invitations`, { email: user.email, role }, [202]);
  await new Api(user.token).call("POST", `/api/invites/${slug}/accept`);
}

const card = (page: Page | Locator, id: string) => page.getByRole("article", { name: `Session ${id}` });
const column = (page: Page, status: "todo" | "doing" | "done") => page.getByTestId(`column-${status}`);

async function statusOf(id: string, slug?: string): Promise<string> {
  return (await new Api().call<{ session: { status: string } }>("GET", `${slug ? `/api/projects/${slug}` : "/api"}/sessions/${id}`)).session.status;
}

test.describe("session board: finishing a claimed document", () => {
  test("its claimer completes or releases it; others see no buttons; an owner may finish anyone's", async ({ page, browser }, testInfo) => {
    const slug = unique("finish");
    // The accounts first: each is a run of the admin CLI, seconds on a busy machine, long enough for the
    // server to close an idle keep-alive connection under a request sent right after.
    const bo = createUser("bo");
    const vi = createUser("vi");
    const admin = new Api();
    await admin.project(slug);
    await addMember(slug, bo, "member");
    await addMember(slug, vi, "viewer");
    const [boDone, boBack, adminOwn, boByOwner] = ["a", "b", "c", "d"].map((x) => `${slug}-${x}`) as [string, string, string, string];
    for (const [id, title] of [[boDone, "Bo finishes"], [boBack, "Bo gives back"], [adminOwn, "Ada's own"], [boByOwner, "Ada releases Bo's"]] as const) {
      await admin.session(slug, doc(id, title));
    }
    const boApi = new Api(bo.token);
    for (const id of [boDone, boBack, boByOwner]) await boApi.claim(id);
    await admin.claim(adminOwn);

    // Bo, a member: buttons on his own claims only.
    const boPage = await signedInPage(browser, bo);
    await boPage.goto(`/projects/${slug}/sessions`);
    await expect(card(boPage, boDone).getByRole("button", { name: "Complete" })).toBeVisible();
    await expect(card(boPage, boDone).getByRole("button", { name: "Release" })).toBeVisible();
    await expect(card(boPage, adminOwn).getByRole("button")).toHaveCount(0);
    await snap(boPage, testInfo, "board-claimer");

    await card(boPage, boDone).getByRole("button", { name: "Complete" }).click();
    await expect(card(column(boPage, "done"), boDone)).toBeVisible();
    expect(await statusOf(boDone)).toBe("done");
    await card(boPage, boBack).getByRole("button", { name: "Release" }).click();
    await expect(card(column(boPage, "todo"), boBack)).toBeVisible();
    expect(await statusOf(boBack)).toBe("todo");
    await expect(card(column(boPage, "todo"), boBack).getByRole("button")).toHaveCount(0);

    // Vi, a viewer: sees the board, may finish nothing.
    const viPage = await signedInPage(browser, vi);
    await viPage.goto(`/projects/${slug}/sessions`);
    await expect(card(viPage, boByOwner)).toBeVisible();
    await expect(column(viPage, "doing").getByRole("button")).toHaveCount(0);

    // Ada, the owner: her own and Bo's.
    await page.goto(`/projects/${slug}/sessions`);
    await expect(card(page, adminOwn).getByRole("button", { name: "Complete" })).toBeVisible();
    await card(page, boByOwner).getByRole("button", { name: "Release" }).click();
    await expect(card(column(page, "todo"), boByOwner)).toBeVisible();
    expect(await statusOf(boByOwner)).toBe("todo");
    await snap(page, testInfo, "board-owner");

    // A board gone stale: finished elsewhere meanwhile, the button says why it cannot.
    await boApi.claim(boByOwner);
    await boPage.reload();
    await expect(card(boPage, boByOwner).getByRole("button", { name: "Complete" })).toBeVisible();
    await boApi.complete(boByOwner);
    await card(boPage, boByOwner).getByRole("button", { name: "Complete" }).click();
    await expect(card(boPage, boByOwner).getByRole("alert")).toContainText(`Session "${boByOwner}" is done, not claimed`);
    await boPage.context().close();
    await viPage.context().close();
  });

  test("the same id in two projects: each board finishes its own document", async ({ page }) => {
    const [one, two] = [unique("twin-a"), unique("twin-b")];
    const admin = new Api();
    const id = `${one}-doc`;
    for (const slug of [one, two]) {
      await admin.project(slug);
      await admin.session(slug, doc(id, `Twin of ${slug}`));
      await admin.claim(id, slug);
    }
    await page.goto(`/projects/${two}/sessions`);
    await card(page, id).getByRole("button", { name: "Complete" }).click();
    await expect(card(column(page, "done"), id)).toBeVisible();
    expect([await statusOf(id, one), await statusOf(id, two)]).toEqual(["doing", "done"]);
    await page.goto(`/projects/${one}/sessions`);
    await card(page, id).getByRole("button", { name: "Release" }).click();
    await expect(card(column(page, "todo"), id)).toBeVisible();
    expect([await statusOf(id, one), await statusOf(id, two)]).toEqual(["todo", "done"]);
  });
});
