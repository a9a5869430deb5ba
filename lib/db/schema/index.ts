export * from "./auth";
export * from "./projects";
export * from "./tokens";
export * from "./cli-logins";
export * from "./memory";
export * from "./log";
export * from "./rate-limits";
export * from "./audit";
export * from "./counts";

// The column value types, for the query layer that names them beside the tables; the lists are rules.
export type { InvitationStatus, LearningKind, MatcherKind, ProjectRole, ProposalStatus, SessionStatus, TokenScope } from "../../rules";
