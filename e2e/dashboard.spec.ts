import { ADMIN, createProject, createToken, expect, signIn, snap, test, unique } from "./fixtures";

type ProjectsBody = { ok: true; items: { slug: string; name: string; role: string; createdAt: string }[]; nextCursor: string | null };
type ErrorBody = { ok: false; error: { code: string; message: string } };

test.describe("signing in and out", () => {
  // Signing out ends the session on the server, so this test must not use the shared admin session.
  test.use({ storageState: { cookies: [], origins: [] } });

  test("sign out, a wrong password is refused, the right one signs in", async ({ page }, testInfo) => {
    await page.goto("/sign-in");
    await signIn(page);
    await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toHaveText(ADMIN.email);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
    // The session is really gone: the dashboard sends us back to sign-in.
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in$/);
    await snap(page, testInfo, "sign-in");

    await signIn(page, "not the password");
    // Scoped to <main>: Next's route announcer is also role=alert.
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong email or password.");
    await expect(page).toHaveURL(/\/sign-in$/);
    // The email stays filled in; only the password has to be typed again.
    await expect(page.getByLabel("Email")).toHaveValue(ADMIN.email);
    await snap(page, testInfo, "sign-in-wrong-password");

    await signIn(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toHaveText(ADMIN.email);
    await snap(page, testInfo, "projects-after-sign-in");
  });

  test("a signed-out visit to /settings/tokens returns there after sign-in", async ({ page }, testInfo) => {
    await page.goto("/settings/tokens");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fsettings%2Ftokens$/);
    await expect(page.locator('input[type="hidden"][name="next"]')).toHaveValue("/settings/tokens");
    await snap(page, testInfo, "sign-in-with-next");

    await signIn(page);
    await expect(page).toHaveURL(/\/settings\/tokens$/);
    await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
    await snap(page, testInfo, "tokens-after-sign-in");
  });
});

test.describe("a stale session cookie", () => {
  // A cookie the server no longer knows (expired, or signed out elsewhere): the proxy lets it through,
  // the page itself refuses it, and sign-in still returns to the page asked for.
  test.use({
    storageState: {
      cookies: [{ name: "better-auth.session_token", value: "stale.token", domain: "127.0.0.1", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" }],
      origins: [],
    },
  });

  test("is sent to sign-in and back to the page it asked for", async ({ page }) => {
    await page.goto("/settings/tokens");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fsettings%2Ftokens$/);
    await signIn(page);
    await expect(page).toHaveURL(/\/settings\/tokens$/);
  });
});

test.describe("dashboard", () => {
  test("create a project and see it in the table", async ({ page }, testInfo) => {
    const slug = unique("web-app");
    await page.goto("/");
    await snap(page, testInfo, "projects");
    await expect(page.getByRole("row").filter({ hasText: slug })).toHaveCount(0);

    await createProject(page, "Web app", slug);
    const row = page.getByRole("row").filter({ hasText: slug });
    await expect(row.getByRole("cell")).toHaveText(["Web app", slug, "owner", /^\d{4}-\d{2}-\d{2}$/]);
    await snap(page, testInfo, "projects-with-new-project");

    // It is stored, not just shown: still there after a reload.
    await page.reload();
    await expect(page.getByRole("row").filter({ hasText: slug })).toHaveCount(1);
  });

  test("a token made in the dashboard works against the API", async ({ page, baseURL }, testInfo) => {
    const slug = unique("api-project");
    await createProject(page, "API project", slug);

    const name = unique("laptop");
    const secret = await createToken(page, name, "write");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy" }).click();
    await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const row = page.getByRole("table", { name: "Your tokens" }).getByRole("row").filter({ hasText: name });
    await expect(row).toContainText(secret.slice(0, "baton_".length + 6));
    await expect(row).toContainText("write");
    await expect(row.getByRole("button", { name: `Revoke ${name}` })).toBeVisible();
    // The table shows only the prefix, never the secret.
    await expect(page.getByRole("table", { name: "Your tokens" })).not.toContainText(secret);
    await snap(page, testInfo, "tokens-new-write-token");

    const ok = await fetch(`${baseURL}/api/projects`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as ProjectsBody;
    expect(body.ok).toBe(true);
    expect(body.items.map((p) => p.slug)).toContain(slug);
    expect(body.items.find((p) => p.slug === slug)).toMatchObject({ name: "API project", role: "owner" });

    const anonymous = await fetch(`${baseURL}/api/projects`);
    expect(anonymous.status).toBe(401);
    const error = (await anonymous.json()) as ErrorBody;
    expect(error).toEqual({ ok: false, error: { code: "unauthorized", message: expect.any(String) } });
    expect(error.error.message.length).toBeGreaterThan(0);

    const wrong = await fetch(`${baseURL}/api/projects`, { headers: { Authorization: `Bearer ${secret}x` } });
    expect(wrong.status).toBe(401);
  });

  test("a read-scope token cannot create a project", async ({ page, baseURL }, testInfo) => {
    const name = unique("reader");
    const secret = await createToken(page, name, "read");
    const row = page.getByRole("table", { name: "Your tokens" }).getByRole("row").filter({ hasText: name });
    await expect(row.getByRole("cell").nth(2)).toHaveText("read");
    await snap(page, testInfo, "tokens-new-read-token");

    const slug = unique("from-reader");
    const post = await fetch(`${baseURL}/api/projects`, {
      method: "POST",
      headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({ slug, name: "From a reader" }),
    });
    expect(post.status).toBe(403);
    const error = (await post.json()) as ErrorBody;
    expect(error.ok).toBe(false);
    expect(error.error.code).toBe("forbidden");

    // Reading still works, and the refused project was not created.
    const list = await fetch(`${baseURL}/api/projects`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as ProjectsBody).items.map((p) => p.slug)).not.toContain(slug);
  });

  test("a write token can create a project through the API", async ({ page, baseURL }, testInfo) => {
    const secret = await createToken(page, unique("writer"), "write");
    const slug = unique("from-api");
    const post = await fetch(`${baseURL}/api/projects`, {
      method: "POST",
      headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({ slug, name: "From the API" }),
    });
    expect(post.status).toBe(201);
    expect(await post.json()).toMatchObject({ ok: true, project: { slug, name: "From the API", role: "owner" } });

    // The dashboard shows what the API made.
    await page.goto("/");
    await expect(page.getByRole("row").filter({ hasText: slug })).toContainText("From the API");
    await snap(page, testInfo, "projects-with-api-project");
  });

  test("a revoked token is refused", async ({ page, baseURL }, testInfo) => {
    const name = unique("revoke-me");
    const secret = await createToken(page, name, "write");
    const before = await fetch(`${baseURL}/api/projects`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(before.status).toBe(200);

    const table = page.getByRole("table", { name: "Your tokens" });
    await table.getByRole("button", { name: `Revoke ${name}` }).click();
    await expect(page.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
    await snap(page, testInfo, "tokens-after-revoke");

    const after = await fetch(`${baseURL}/api/projects`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(after.status).toBe(401);
    expect(((await after.json()) as ErrorBody).error.code).toBe("unauthorized");

    // Still gone after a reload (the revocation was stored).
    await page.reload();
    await expect(page.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
  });

  test("revoking a token another tab revoked already shows the list again, not an error page", async ({ page, context }) => {
    const name = unique("twice");
    await createToken(page, name, "write");
    const other = await context.newPage();
    await other.goto("/settings/tokens");
    await page.getByRole("table", { name: "Your tokens" }).getByRole("button", { name: `Revoke ${name}` }).click();
    await expect(page.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
    await other.getByRole("table", { name: "Your tokens" }).getByRole("button", { name: `Revoke ${name}` }).click();
    await expect(other.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
    await expect(other.getByRole("table", { name: "Your tokens" })).toBeVisible();
    await other.close();
  });
});
