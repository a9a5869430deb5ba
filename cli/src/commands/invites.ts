import { defuseLine } from "../../../lib/context/pack/fence";
import { isSlug } from "../config/derive-project";
import { requireServer } from "../config/server-context";
import { CliError, EXIT } from "../exit-codes";
import { expectOk } from "../http/api-client";
import { parseOptions } from "../output/parse-options";
import { printResult } from "../output/print";

type Invitation = { project: { slug: string; name: string }; role: string; invitedBy: { name: string; email: string } | null; createdAt: string };

function listLine(i: Invitation): string {
  // The inviter's name comes from a person: defused onto the line.
  const by = i.invitedBy ? `${defuseLine(i.invitedBy.name)} <${i.invitedBy.email}>` : "a former account";
  return `${i.project.slug.padEnd(20)}  ${i.role.padEnd(6)}  invited by ${by}, ${i.createdAt.slice(0, 10)}`;
}

/** `baton invites`: the invitations waiting for your answer. */
async function invitesList(args: string[]): Promise<number> {
  parseOptions(args, {});
  const { call } = requireServer();
  const { items } = expectOk<{ items: Invitation[] }>(await call("GET", "/api/invites"), "cannot list your invitations");
  printResult({ items }, () =>
    items.length
      ? ["Invitations waiting for your answer (baton invites accept|decline <project>):", ...items.map(listLine)].join("\n")
      : "No invitations waiting for your answer.",
  );
  return EXIT.ok;
}

/** `baton invites accept|decline <project>`: join the project, or say no. */
async function invitesDecide(verb: "accept" | "decline", args: string[]): Promise<number> {
  const { positionals } = parseOptions(args, {}, 1);
  const slug = positionals[0];
  if (!slug) throw new CliError(`a project is required: baton invites ${verb} <project> (baton invites lists them).`, EXIT.usage);
  if (!isSlug(slug)) throw new CliError(`"${slug}" is not a project slug (lowercase letters, digits, dashes).`, EXIT.usage);
  const { call } = requireServer();
  const res = await call("POST", `/api/invites/${encodeURIComponent(slug)}/${verb}`);
  if (verb === "accept") {
    const { project } = expectOk<{ project: { slug: string; name: string; role: string } }>(res, `cannot accept the invitation to "${slug}"`);
    printResult({ project }, `You joined ${defuseLine(project.name)} (${project.slug}) as ${project.role}.`);
  } else {
    expectOk(res, `cannot decline the invitation to "${slug}"`);
    printResult({ declined: slug }, `Invitation to ${slug} declined.`);
  }
  return EXIT.ok;
}

const SUBCOMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  list: invitesList,
  accept: (args) => invitesDecide("accept", args),
  decline: (args) => invitesDecide("decline", args),
};

/** `baton invites [list|accept|decline]`: invitations to projects, answered by their invitee. */
export async function runInvites(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub.startsWith("-")) return invitesList(args);
  const run = Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
  if (!run) throw new CliError(`unknown invites command "${sub}": use ${Object.keys(SUBCOMMANDS).join(", ")}.`, EXIT.usage);
  return run(rest);
}
