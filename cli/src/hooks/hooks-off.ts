/**
 * BATON_HOOKS=off: Baton's hooks do nothing in that process's sessions (`baton hook` returns at once,
 * saying nothing). Set for the agent a summariser runs, so that it neither gets Baton's context nor
 * ends in a summary of its own; a user may set it too.
 */
export const HOOKS_OFF = { BATON_HOOKS: "off" } as const;

export const hooksAreOff = (env: NodeJS.ProcessEnv): boolean => env.BATON_HOOKS === HOOKS_OFF.BATON_HOOKS;
