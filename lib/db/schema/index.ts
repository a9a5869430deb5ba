export * from "./auth";
export * from "./projects";
export * from "./tokens";
export * from "./memory";
export * from "./log";
