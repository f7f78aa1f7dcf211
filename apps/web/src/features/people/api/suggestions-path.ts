/** How many people "Who to follow" shows. */
export const SUGGESTIONS_SHOWN = 5;

/** The request of the suggestions (dependency-free: the boot script sends it for the feeds, see src/boot). */
export const suggestionsPath = (limit: number) => `/api/users/suggestions?limit=${limit}`;
