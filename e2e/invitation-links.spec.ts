import { expect, snap, test, unique } from "./fixtures";
import { Api, createUser, signedInPage } from "./seed";

// Invitation links (issue 24): the owner invites an email and copies the link shown once; a new person
// opens it in a browser of their own, creates an account with their own name and password, and lands
// in the project, signed in, with the invited role. The used link then opens nothing.

test.describe("invitation links", () => {
  test("a new person joins through the link the owner copied", async ({ page, browser }, testInfo) => {
    const slug = unique("linked");
    await new Api().project(slug, "Linked project");
    const email = `${unique("newcomer")}@example.test`;

    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(`/settings/projects/${slug}`);
    const form = page.getByRole("region", { name: "Members" });
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Role", { exact: true }).selectOption("viewer");
    await form.getByRole("button", { name: "Invite" }).click();
    await expect(form.getByRole("status")).toContainText(`Invitation sent to ${email}. Copy the link`);
    const shown = form.getByTestId("invitation-link");
    await expect(shown).toHaveText(/\/join\/join_[\w-]{43}$/);
    await form.getByRole("button", { name: "Copy" }).click();
    await expect(form.getByRole("button", { name: "Copied" })).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(await shown.textContent());
    await snap(page, testInfo, "invitation-link-shown");
    // Shown once: the page afresh lists the invitation, never the link.
    await page.reload();
    await expect(page.getByRole("table", { name: "Pending invitations" }).getByRole("row").filter({ hasText: email })).toContainText("until");
    expect(await page.content()).not.toContain(link.slice(link.lastIndexOf("/") + 1));

    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const newcomer = await context.newPage();
    await newcomer.goto(link);
    await expect(newcomer.getByRole("heading", { name: "Join Linked project" })).toBeVisible();
    await expect(newcomer.getByLabel("Email")).toHaveValue(email);
    await expect(newcomer.getByLabel("Email")).not.toBeEditable();
    await newcomer.getByLabel("Your name").fill("Nova Newcomer");
    await newcomer.getByLabel("Password", { exact: true }).fill("my own long password");
    await newcomer.getByLabel("Password again").fill("my own long password");
    await snap(newcomer, testInfo, "invitation-join-form");
    await newcomer.getByRole("button", { name: "Create my account and join" }).click();

    await expect(newcomer).toHaveURL(new RegExp(`/projects/${slug}$`));
    await expect(newcomer.getByTestId("signed-in-as")).toHaveText(email);
    await expect(newcomer.getByRole("heading", { name: "Linked project", exact: true })).toBeVisible();
    await newcomer.goto(`/settings/projects/${slug}`);
    await expect(newcomer.getByTestId("your-role")).toHaveText("viewer");
    // Their home page says what is left to do on their machine, and where the commands are; the owner,
    // whose CLI holds a token, is not told.
    await newcomer.goto("/");
    await expect(newcomer.getByTestId("connect-note")).toContainText("no coding agent of yours reaches this server yet");
    await newcomer.getByTestId("connect-note").getByRole("link", { name: "Connect an agent" }).click();
    await expect(newcomer.getByRole("heading", { name: "Connect an agent", level: 1 })).toBeVisible();
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
    await expect(page.getByTestId("connect-note")).toHaveCount(0);

    // Used: the link opens nothing now, for anyone.
    const stranger = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
    await stranger.goto(link);
    await expect(stranger.getByTestId("dead-link")).toContainText("This invitation link cannot be used");
    await expect(stranger.getByLabel("Password")).toHaveCount(0);
    await context.close();
  });

  test("the invited account accepts on the link's page; another account is told whom it is for", async ({ browser }) => {
    const slug = unique("accepted");
    const admin = new Api();
    await admin.project(slug, "Accepted project");
    const [cy, eve] = [createUser("cy"), createUser("eve")];
    const { invitation } = await admin.call<{ invitation: { link: string } }>("POST", `/api/projects/${slug}/invitations`, { email: cy.email, role: "member" }, [202]);

    const other = await signedInPage(browser, eve);
    await other.goto(invitation.link);
    await expect(other.getByText(/^This invitation is for/)).toContainText(`This invitation is for ${cy.email}, and you are signed in as ${eve.email}.`);
    await expect(other.getByRole("button", { name: /^Accept/ })).toHaveCount(0);

    const invited = await signedInPage(browser, cy);
    await invited.goto(invitation.link);
    await invited.getByRole("button", { name: "Accept and join Accepted project" }).click();
    await expect(invited).toHaveURL(new RegExp(`/projects/${slug}$`));
    await expect(invited.getByRole("heading", { name: "Accepted project", exact: true })).toBeVisible();
    await new Api(cy.token).call("GET", `/api/projects/${slug}`);
  });
});
