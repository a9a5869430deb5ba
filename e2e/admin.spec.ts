import { expect, snap, test } from "./fixtures";
import { Api, createUser, signedInPage } from "./seed";

// The admin page (issue 24): the first account (the setup's, signed in here) lists the users, disables
// one (their token is refused at once), enables them again and makes them a password reset link; the
// person opens it in a browser of their own, sets a password and signs in with it. A member gets the
// dashboard's 404 and no link to the page.

test.describe("the admin page", () => {
  test("an admin disables a user and makes a reset link the person uses", async ({ page, browser }, testInfo) => {
    const person = createUser("resettee");
    const before = await new Api(person.token).call<{ user: { email: string } }>("GET", "/api/me");
    expect(before.user.email).toBe(person.email);

    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { name: "Users", exact: true })).toBeVisible();
    const row = page.getByTestId("user-row").filter({ hasText: person.email });
    await expect(row).toContainText(person.name);
    await expect(row).toContainText("member");
    await expect(row.getByTestId("user-status")).toHaveText("active");

    await row.getByRole("button", { name: `Disable ${person.email}` }).click();
    await expect(row.getByTestId("user-status")).toHaveText("disabled");
    await new Api(person.token).call("GET", "/api/me", undefined, [401]);
    await snap(page, testInfo, "admin-user-disabled");

    await row.getByRole("button", { name: `Enable ${person.email}` }).click();
    await expect(row.getByTestId("user-status")).toHaveText("active");
    await row.getByRole("button", { name: `Reset link for ${person.email}` }).click();
    const shown = row.getByTestId("reset-link");
    await expect(shown).toHaveText(/\/reset\/reset_[\w-]{43}$/);
    await expect(row.getByRole("status")).toContainText(`Copy this password reset link and send it to ${person.email}`);
    const link = (await shown.textContent())!;
    await snap(page, testInfo, "admin-reset-link");

    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const visitor = await context.newPage();
    await visitor.goto(link);
    await expect(visitor.getByRole("heading", { name: "Set a new password" })).toBeVisible();
    await expect(visitor.getByText(`For ${person.email}.`)).toBeVisible();
    await visitor.getByLabel("New password", { exact: true }).fill("a password of my own");
    await visitor.getByLabel("New password again").fill("a password of my own");
    await visitor.getByRole("button", { name: "Set my password" }).click();
    await expect(visitor).toHaveURL(/\/sign-in\?reset=1$/);
    await expect(visitor.getByRole("status")).toContainText("Your new password is set");
    await visitor.getByLabel("Email").fill(person.email);
    await visitor.getByLabel("Password").fill("a password of my own");
    await visitor.getByRole("button", { name: "Sign in" }).click();
    await expect(visitor.getByTestId("signed-in-as")).toHaveText(person.email);

    // Used: the link opens nothing now.
    await visitor.goto(link);
    await expect(visitor.getByTestId("dead-link")).toContainText("This password reset link cannot be used");
    await context.close();
  });

  test("a member gets the dashboard's 404 and no Users link", async ({ browser }) => {
    const member = createUser("plain");
    const page = await signedInPage(browser, member);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" })).toHaveCount(0);
    const res = await page.goto("/admin");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await page.context().close();
  });
});
