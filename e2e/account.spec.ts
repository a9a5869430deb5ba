import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { Api, createUser, signedInPage, type TestUser } from "./seed";

// One's own account (issue 24): a new password given the current one, and signing out the other places
// one is signed in. Two browsers of the same person: what one does, the other feels.

async function signInFails(page: Page, user: TestUser, password: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").first()).toContainText("Wrong email or password");
}

test.describe("your account", () => {
  test("changing the password needs the current one, signs out the other browser, and the old password stops working", async ({ browser }) => {
    const user = createUser("account");
    const laptop = await signedInPage(browser, user);
    const phone = await signedInPage(browser, user);
    await laptop.goto("/settings/account");
    await expect(laptop.getByRole("heading", { name: "Your account" })).toBeVisible();
    await expect(laptop.getByText("You are signed in in 1 other place besides this one.")).toBeVisible();

    const form = laptop.locator("form", { has: laptop.getByLabel("Current password") });
    await form.getByLabel("Current password").fill("not-my-password");
    await form.getByLabel("New password", { exact: true }).fill("a new long password");
    await form.getByLabel("New password again").fill("a new long password");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(laptop.locator("#current-error")).toHaveText("The current password is wrong.");

    await form.getByLabel("Current password").fill(user.password);
    await form.getByLabel("New password", { exact: true }).fill("a new long password");
    await form.getByLabel("New password again").fill("a new long password");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(laptop.getByText("Password changed. You are signed out everywhere else.")).toBeVisible();

    // This browser stays signed in; the other one is signed out.
    await laptop.reload();
    await expect(laptop.getByTestId("signed-in-as")).toHaveText(user.email);
    await phone.goto("/settings/account");
    await expect(phone).toHaveURL(/\/sign-in/);
    await signInFails(phone, user, user.password);
    // API tokens are not sessions: the CLI keeps working.
    expect((await new Api(user.token).call<{ items: unknown[] }>("GET", "/api/proposals")).items).toEqual([]);
    const again = await signedInPage(browser, { ...user, password: "a new long password" });
    await expect(again.getByTestId("signed-in-as")).toHaveText(user.email);
  });

  test("signs out everywhere else, and keeps this browser", async ({ browser }) => {
    const user = createUser("sessions");
    const here = await signedInPage(browser, user);
    const there = await signedInPage(browser, user);
    await here.goto("/settings/account");
    await here.getByRole("button", { name: "Sign out everywhere else" }).click();
    await expect(here.getByText("You are signed out everywhere else.")).toBeVisible();
    await here.reload();
    await expect(here.getByText("You are signed in here only.")).toBeVisible();
    await there.goto("/");
    await expect(there).toHaveURL(/\/sign-in/);
  });
});
