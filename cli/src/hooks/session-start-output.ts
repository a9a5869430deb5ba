// Imported by the dispatcher as well as the hook: nothing here but strings.

/** The context when there is none to give, saying why. */
export const unavailableText = (why: string): string => `Baton: context unavailable (${why}).`;
