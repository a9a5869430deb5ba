import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { startCli } from "../support/cli";
import { loginApproval } from "../support/login-approval";
import { testWorld } from "../support/world";
import { homeEnv } from "../fixtures/cli/cli-env";

// `baton login` where the config file cannot be written (a folder owned by another user, a read-only
// disk): a token made on the server and then not saved stays valid with nobody holding it. (The tests
// run as root, whom a mode of 0555 does not stop: a path under a regular file stops everyone.)
const world = testWorld({ tempPrefix: "baton-cli-login-unwritable-", users: ["ana"], projects: {}, members: [], tokens: {} });
const { answer } = loginApproval(world);

let homes = 0;
/** A fresh HOME with no display, and XDG_CONFIG_HOME at `<home>/xdg` (not there yet). */
function newHome() {
  const home = path.join(world.dir, `home-${++homes}`);
  const xdg = path.join(home, "xdg");
  return { xdg, env: homeEnv(home, { DISPLAY: "", WAYLAND_DISPLAY: "", XDG_CONFIG_HOME: xdg }) };
}

describe("baton login with a config file it cannot write", () => {
  it("says where and why before asking for approval (exit 1), and no code is made", async () => {
    const { xdg, env } = newHome();
    writeFileSync(xdg, "a file where the config folder would be");
    const before = await world.sql("SELECT count(*) AS n FROM cli_logins");
    const cli = startCli(["login", "--url", world.server.url], { env, cwd: world.dir });
    // Today's failure is to ask and wait: the test ends when the code is printed, whichever comes first.
    const asked = cli.stderrMatch(/approve the code/).then(
      () => "asked for approval",
      () => new Promise<never>(() => {}),
    );
    const result = await Promise.race([cli.done, asked]);
    cli.kill();
    expect(result).not.toBe("asked for approval");
    const { code, stderr } = await cli.done;
    expect(code).toBe(1);
    expect(stderr).toContain(`cannot save a token in ${path.join(xdg, "baton", "config.json")}: ${xdg} is not a folder.`);
    expect(await world.sql("SELECT count(*) AS n FROM cli_logins")).toEqual(before);
  });

  it("when saving fails after approval all the same, the token is printed once with where it goes, and it works", async () => {
    const { xdg, env } = newHome();
    const cli = startCli(["login", "--url", world.server.url], { env, cwd: world.dir });
    const [, code] = await cli.stderrMatch(/approve the code ([A-Z]{4}-[A-Z]{4}):/);
    // The config folder becomes impossible while the person is in the browser.
    writeFileSync(xdg, "a file where the config folder would be");
    expect(await answer("ana", code!, { decision: "approve", name: "unsaved", scope: "write" })).toContain("Approved.");
    const result = await cli.done;
    expect(result.code).toBe(1);
    const tokens = result.stderr.match(/baton_[A-Za-z0-9_-]+/g) ?? [];
    expect(tokens, result.stderr).toHaveLength(1);
    expect(result.stderr).toContain(`could not be saved in ${path.join(xdg, "baton", "config.json")}`);
    expect(result.stderr).toMatch(/Keep the token, shown this once, in that file as "token" beside "url": "[^"]+" .*or set it as BATON_TOKEN with BATON_URL=\S+: baton_/);
    expect((await apiClient(world.server.url, tokens[0]!)("GET", "/api/me")).status).toBe(200);
  });
});
