import { test as base, type APIRequestContext } from "@playwright/test";
import { BASE_URL } from "./fixtures";
import { adminToken } from "./seed";

/** The `api` project's fixture: an HTTP client that sends the admin's Bearer token (made by auth.setup.ts). */
export const test = base.extend<{ api: APIRequestContext; anonymous: APIRequestContext }>({
  api: async ({ playwright }, provide) => {
    const api = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Authorization: `Bearer ${adminToken()}` } });
    await provide(api);
    await api.dispose();
  },
  anonymous: async ({ playwright }, provide) => {
    const anonymous = await playwright.request.newContext({ baseURL: BASE_URL });
    await provide(anonymous);
    await anonymous.dispose();
  },
});

export { expect } from "@playwright/test";
