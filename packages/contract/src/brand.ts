// The name and the tagline, apart from the other constants: the web app's entry script needs the name
// (every page's title) and /landing the tagline, and a module travels whole into the chunk of its first user.
export const APP_NAME = 'Share Arts';
export const TAGLINE = 'Connect to community and get inspired today.';
