const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID; ids from a URL are checked before they reach SQL, so a malformed one is a 404, not a 500. */
export const isUuid = (value: string): boolean => UUID.test(value);
