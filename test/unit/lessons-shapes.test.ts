import { describe, expect, it } from "vitest";
import { agent, edit, lessons, shell, user } from "../support/lesson-session";

// The lesson extractor (issue 23) on the shapes the fourth round of labelled sessions (tune 37-48) showed
// it missing or taking wrongly, each as a small session of its own: how people and agents talk, not
// any stack's words. The finders' first rules and the quality floors are in lessons.test.ts.

describe("extractLessons, shapes of the sessions it had not seen", () => {
  it("a bare flag nobody explained is no fix; a setting is, and so is a command the user named in between", () => {
    const bare = lessons(user("init it"), shell("tofu init -input=false", true, "Error: Failed to query available provider packages", 1), shell("tofu init -input=false -upgrade", false, "OpenTofu has been successfully initialized!", 2));
    expect(bare).toEqual([]);
    const login = lessons(
      user("preview the dev stack"),
      shell("cd infra && pulumi stack select dev && pulumi preview", true, "error: no stack named 'dev' found", 1),
      user("the state isnt in pulumi cloud, it's the gcs bucket. you're logged into app.pulumi.com by default", 2),
      shell("pulumi login gs://acme-state && cd infra && pulumi stack ls", false, "dev  2 days ago", 3),
      shell("cd infra && pulumi stack select dev && pulumi preview --diff", false, "+ 5 to create", 4),
    );
    expect(login.map((l) => l.lesson)).toEqual(["resolved_failure"]);
    expect(login[0]!.content).toMatch(/needs `pulumi login gs:\/\/acme-state` first.*no stack named 'dev'/);
  });

  it("the agent's own choice is a decision once the user says yes, not before", () => {
    const chose = agent("I'll use a Redis stream rather than a list because consumer groups track what each worker has read.", 1);
    expect(lessons(user("queue the thumbnails"), chose, edit("worker/queue.go", 2))).toEqual([]);
    expect(lessons(user("queue the thumbnails"), chose, user("yes", 2)).map((l) => l.lesson)).toEqual(["decision"]);
  });

  it.each([
    ["a prohibition and what to do instead", "whoa no. never touch a V file that's already applied — the checksum changes and validate fails the deploy. from now on: changes go in a new V file", /^Never touch a V file.*fails the deploy\. Changes go in a new V file\.$/],
    ["a rule and the reason said after it", "also always static types in gdscript here. the linter in CI fails otherwise", /^Always static types in gdscript here\. The linter in CI fails otherwise\.$/],
    ["'remember:' with a colon", "and remember: every new option goes into the defaults table in config.lua", /^Every new option goes into the defaults table/],
  ])("a statement in so many words: %s", (_name, said, content) => {
    const found = lessons(user("add the option"), edit("lua/blame/init.lua", 1), user(said, 2));
    expect(found.filter((l) => l.lesson === "explicit").map((l) => l.content)).toEqual([expect.stringMatching(content)]);
  });

  it.each([
    ["denying a name the agent used", "Plan: blink the Nucleo user LED on PA5.", "its not a nucleo, it's our carrier board. the led is on PB0 and active low", /^Its not a nucleo, it's our carrier board/],
    ["limiting what the agent used", "Switched the blame call to vim.system() with an on_exit callback.", "vim.system is 0.10 only. we still support 0.9, see the README", /^Vim\.system is 0\.10 only/],
    ["echoing its value as a question", "Added InvoiceApi(region='us-central1').", "us-central1?? everything we have is europe-west3, customer data can't leave the EU", /^Everything we have is europe-west3/],
  ])("the user correcting the agent by %s", (_name, did, said, content) => {
    const found = lessons(user("go on"), agent(did, 1), user(said, 2));
    expect(found.map((l) => l.lesson)).toEqual(["correction"]);
    expect(found[0]!.content).toMatch(content);
  });

  it.each([
    ["an acknowledgement before the next request", "Added the rolling mean with a test.", "ok add a docstring example with jldoctest like the others and we're done"],
    ["a 'no' to the agent's offer to do more", "Inserts go through afterInsert. Do you want it there too?", "no, ticket only says stage change. leave it"],
    ["a hedged or for-now answer", "Exported the chart as SVG.", "no, png is fine for now, the report tool can't embed svg yet"],
  ])("%s corrects nothing", (_name, did, said) => {
    expect(lessons(user("go on"), agent(did, 1), user(said, 2)).filter((l) => l.lesson === "correction")).toEqual([]);
  });

  it.each([
    ["'I'd use …' answered by naming it", "With a blocking send the ADC task would miss ticks. I'd use an embassy_sync Channel with try_send, dropping samples when full, so that sampling never waits on the UART.", "yeah fine, channel + try_send", /Channel with try_send/],
    ["'which way do you want …?' answered with a reason", "previewWithdraw rounds the fee down. Which way do you want the fee rounded?", "up, in favour of the vault. the auditors flagged rounding-down fees because you can split a withdraw into dust", /rounds the fee down.*auditors/],
    ["'go with that' taking the recommendation", "Two ways: a VPC connector or Direct VPC egress. I'd go with Direct VPC egress: no connector VMs to pay for. It needs a /26 subnet.", "ok go with that. use a new /26, 10.20.8.0/26 is free", /^I'd go with Direct VPC egress/],
    ["an option named inside a compound name", "Two options: MPI_Sendrecv up and down (blocking), or MPI_Isend/Irecv overlapping the interior compute.", "sendrecv. the regression test compares checksums bit-for-bit, with overlap the sums drift", /MPI_Sendrecv.*bit-for-bit/],
  ])("a decision: %s", (_name, offer, answer, content) => {
    const found = lessons(user("go on"), agent(offer, 1), user(answer, 2));
    expect(found.map((l) => l.lesson)).toEqual(["decision"]);
    expect(found[0]!.content).toMatch(content);
  });

  it("an idea the agent follows with 'Same error' is a disproved guess; the error line is the one the cause explains", () => {
    const found = lessons(
      user("add the index"),
      shell("flyway migrate", true, 'ERROR: Migration to version "1340" failed! Please restore backups\nERROR: Detected both transactional and non-transactional statements within the same migration', 1),
      agent("Flyway wraps the migration in a transaction by default, so explicit BEGIN and COMMIT around the ALTER keeps the CONCURRENTLY statement outside it.", 2),
      edit("db/migration/V1340__currency.sql", 3),
      shell("flyway migrate", true, "ERROR: Detected both transactional and non-transactional statements within the same migration", 4),
      agent("Same error: Flyway decides per migration file whether it runs in a transaction, so the CONCURRENTLY index has to be alone in its own migration.", 5),
      edit("db/migration/V1341__currency_idx.sql", 6),
      shell("flyway migrate", false, "Successfully applied 2 migrations", 7),
    );
    expect(found.map((l) => l.lesson)).toEqual(["resolved_failure"]);
    expect(found[0]!.content).toMatch(/alone in its own migration.*non-transactional statements/);
    expect(found[0]!.content).not.toMatch(/BEGIN/);
  });

  it("a user's statement of how things are, said after an acknowledgement, is a fact; the order beside it is not", () => {
    const found = lessons(
      user("add the service"),
      edit("infra/__main__.py", 1),
      user("good. commit it. prod goes through the deploy workflow anyway, our accounts only have viewer on acme-prod so a local `pulumi up` on prod fails with 403", 2),
    );
    expect(found.map((l) => l.lesson)).toEqual(["fact"]);
    expect(found[0]!.content).toMatch(/^Prod goes through the deploy workflow/);
  });

  it("an agent's finding that nothing else backs (no reason, no one confirms it, nothing done with it) is not proposed", () => {
    const found = lessons(
      user("add validation to PATCH /orders"),
      shell("grep -rn ValidationProblem src/", false, "src/Filters/ValidationFilter.cs:12: return Results.ValidationProblem(errors);", 1),
      agent("ValidationFilter returns Results.ValidationProblem, which is a 400 with a problem-details body — same as POST /customers.", 2),
    );
    expect(found).toEqual([]);
  });

  it("the agent's summary at the end reports the session; it is not a finding", () => {
    const found = lessons(
      user("the worker doesnt see FEATURE_X"),
      shell("grep -n env_file docker-compose.yml", false, "14:    env_file: .env.docker", 1),
      agent("Summary: the worker service only reads .env.docker (env_file on line 14), so FEATURE_X now goes there too.", 2),
    );
    expect(found).toEqual([]);
  });

  it("a search that found nothing, or a test of a file that is not there, then one that did: a question answered, no failure resolved", () => {
    const searched = lessons(
      user("where does the parser read the flag?"),
      shell("grep -rn parseFlag src", true, "", 1),
      agent("No match: the function was renamed to readFlag because the CLI reads flags from the env as well.", 2),
      shell("grep -rn readFlag src", false, "src/cli.ts:12:  readFlag(argv)", 3),
    );
    expect(searched.filter((l) => l.lesson === "resolved_failure")).toEqual([]);
    const tested = lessons(user("is the notes file there?"), shell("test -f missing.txt", true, "", 1), shell("test -f notes.txt && echo notes", false, "notes", 2));
    expect(tested).toEqual([]);
    // A build before the look, or a find that runs what it finds, acts: its failure can be resolved.
    const built = lessons(
      user("build it"),
      shell("npm run build && ls dist", true, "Error: Cannot find module 'esbuild'", 1),
      agent("esbuild is an optional dependency that npm skipped because the lockfile was made on another platform; it needs a fresh install.", 2),
      shell("npm ci", false, "added 310 packages", 3),
      shell("npm run build && ls dist", false, "index.js", 4),
    );
    expect(built.map((l) => l.lesson)).toEqual(["resolved_failure"]);
    // (A command that failed for real and passed once fixed is still one: lessons.test.ts.)
  });
});

describe("corrections said in other languages than English", () => {
  it.each([
    ["German", "Nein, dieses Repo nutzt pnpm, nicht npm.", "Dieses Repo nutzt pnpm, nicht npm."],
    ["German, statt", "Falsch, wir installieren mit pnpm statt mit npm.", "Wir installieren mit pnpm statt mit npm."],
    ["French", "Non, ce dépôt utilise pnpm au lieu de npm.", "Ce dépôt utilise pnpm au lieu de npm."],
    ["Russian", "Нет, в этом репозитории используется pnpm, не npm.", "В этом репозитории используется pnpm, не npm."],
  ])("a %s correction of what the agent ran is proposed as one, without its 'no'", (_language, said, content) => {
    const found = lessons(
      user("install the deps and run the build", 0),
      shell("npm install", false, "added 812 packages in 14s", 1),
      agent("I installed the dependencies with npm install.", 2),
      user(said, 3),
      shell("pnpm install", false, "Done in 6.2s", 4),
    );
    expect(found.filter((l) => l.lesson === "correction").map((l) => l.content)).toEqual([content]);
  });

  it("a French 'non-' word opening a statement is no 'non'", () => {
    const found = lessons(user("set up the worker", 0), agent("I added a blocking read in the worker loop.", 1), user("Non-blocking reads only in the worker loop, the queue stalls otherwise.", 2));
    expect(found.map((l) => l.content)).not.toContain("-blocking reads only in the worker loop, the queue stalls otherwise.");
  });
});
