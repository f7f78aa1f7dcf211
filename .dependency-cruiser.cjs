// The boundaries between the parts of the code, checked by `npm run lint:deps` (part of `npm run lint`).
// A new arrow between web features (or server modules) is added here, on purpose, or the check fails.

const WEB = '^apps/web/src/';
const FEATURES = `${WEB}features/`;

/**
 * Which web feature may import which (through its index.ts). Features form a DAG: people is at the
 * bottom (follow state, profiles), posts shows follow buttons, comments sit on posts, and the post page
 * is composed of both. An import not listed here fails, so a new arrow is always a decision.
 */
const WEB_FEATURE_DEPENDENCIES = {
  // Your account (issue 24): the address and its confirmation, the pages of mailed links.
  account: [],
  auth: [],
  comments: ['posts', 'safety'],
  // Open for commissions (issue 42): the profile's panel, Settings' card, the lists' filter; profiles are people's.
  commissions: ['people'],
  feed: ['commissions', 'posts'],
  // Bring your work (issue 40): Settings' import card, its own API and views.
  imports: [],
  // Inquiries (issue 42): the inbox and thread pages, the "Send an inquiry" dialog, the settings card; a thread is
  // reported through the safety feature's report dialog.
  inquiries: ['safety'],
  // Insights (issue 42): the artist's own counts and charts (the views beacon is lib/view-beacon.ts).
  insights: [],
  landing: [],
  mockman: [],
  notifications: [],
  people: [],
  moderation: [],
  // A work's page shows the series it is in (issue 41).
  'post-page': ['posts', 'comments', 'safety', 'series'],
  // A card's menu reports a post and mutes its author (the safety dialogs load when chosen); the composer's
  // "Add to series" (series/composer.ts).
  // … and "Save to…" beside a card's bookmark (collections/save-to.ts, loaded when chosen).
  posts: ['collections', 'people', 'safety', 'series'],
  // … and the Collections tab (collections/profile.ts, loaded when opened).
  profile: ['collections', 'commissions', 'inquiries', 'people', 'posts', 'safety', 'series'],
  // Block, mute and report: profiles' state lives in people's cache.
  safety: ['people'],
  search: ['commissions', 'people', 'posts'],
  // Series (issue 41): their API, the profile's row, a work's series bars, the composer's choice. No feature
  // below it: the series page, which shows the works as the posts' grid, is a feature of its own.
  series: [],
  'series-page': ['posts', 'series'],
  // Collections (issue 41): their API, the profile's tab and the "Save to…" dialog (lazy faces profile.ts, save-to.ts).
  collections: [],
  // A collection's page: reads and changes it through the collections feature's page face; names works as series do.
  'collection-page': ['collections', 'series'],
  settings: ['account', 'commissions', 'imports', 'moderation', 'people', 'posts', 'safety'],
  // A tag's page shows its works as the posts' grid, and following a tag refreshes Home's posts.
  tags: ['commissions', 'posts'],
};

const SERVER = '^apps/server/src/';
const MODULES = `${SERVER}modules/`;

/**
 * Which server module may import which (through its index.ts). Modules form a DAG: media at the bottom,
 * users show their photos, comments stand alone, posts show their author, picture and newest comments,
 * notifications name people and posts, and the live stream reads notifications, posts, people and the
 * token check. Writes that span modules' tables are in src/actions, events in src/events.
 */
const SERVER_MODULE_DEPENDENCIES = {
  // Sign-up and a changed address are mailed a confirmation link, a forgotten password a reset link (issue 24).
  // Every sign-in writes a server-side session (issue 24), which its token names.
  auth: ['mail', 'sessions', 'users'],
  bench: ['posts'],
  // Blocks and mutes (issue 23) hide people from each other in every read: the safety module's conditions.
  comments: ['safety'],
  // Open for commissions (issue 42): an artist's panel; its example works' pictures named as the media module names
  // them, blocks from the safety module's conditions. Posts and users read its badge and list filters.
  commissions: ['media', 'safety'],
  health: ['media'],
  // Imports (issue 40): each picture of an archive goes through the media module's upload, as an upload does.
  imports: ['media'],
  // Inquiries (issue 42): requests to artists and their threads; a new one mailed through the mail module's mailer
  // (a job), people named as the users module does, blocks from the safety module's conditions.
  inquiries: ['mail', 'safety', 'users'],
  // Insights (issue 42): an artist's own counts; a top work's thumbnail named as the media module names pictures.
  insights: ['media'],
  live: ['auth', 'notifications', 'posts', 'safety', 'users'],
  media: [],
  // Mail (issue 24): SMTP through nodemailer, or the log; the mails' words.
  mail: [],
  mockman: [],
  notifications: ['media', 'safety', 'users'],
  // Web Push (issue 44): a push shows the work's picture as the media module names it; live hands it `online`.
  push: ['media'],
  // OAuth 2 as Mastodon does it (issue 45): an authorized app is a session; revoking one ends it (endSessions).
  oauth: ['sessions'],
  // An artist's Atom feed: their newest works, as the posts module reads them.
  atom: ['posts'],
  // The fediverse (issue 39): an artist's works go out as the posts module reads them for someone signed out;
  // the rest (accounts, follows, pins, keys) it reads with its own SQL. No module imports it. Following out: a
  // remote person's pictures go through the media module's upload, as an import's.
  federation: ['media', 'posts'],
  // Pinned works are posts, shown as the posts module shows them, on a user's profile.
  pins: ['posts', 'safety', 'users'],
  // A shared link's page head (title, Open Graph, the picture's preload) shows a post, a person or a tag; a
  // signed-in Home is drawn for the session its cookie names (an ended one's cookie is cleared).
  // … and a series' page (issue 41), its head drawn from the series module.
  // … and a public collection's page (issue 41).
  pages: ['collections', 'posts', 'series', 'sessions', 'users'],
  // … and the "open for commissions" badge and filter of Explore and tag pages (issue 42).
  posts: ['comments', 'commissions', 'media', 'safety', 'users'],
  // Series (issue 41): an artist's works in order, shown as the posts module shows posts (its reader checks each is
  // there for the viewer), the owner named as the users module does, blocks from the safety module's conditions,
  // and its Atom feed written by the atom module's writer.
  series: ['atom', 'posts', 'safety', 'users'],
  // Collections (issue 41): works by anyone, shown as the posts module's reader shows them; Saved is its bookmarks.
  collections: ['posts', 'safety', 'users'],
  // Drafts and scheduled posts (issue 41): publishing one is the posts module's create and the series module's
  // addWork; its pictures' alt texts and a discarded draft's pictures go through the media module.
  drafts: ['media', 'posts', 'series'],
  // … and people narrowed to artists open for commissions (issue 42).
  search: ['commissions', 'posts', 'tags', 'users'],
  // A tag's page is a list of posts; suggestions by prefix reuse the users module's byte-order range.
  tags: ['posts', 'users'],
  // … and the "open for commissions" badge and filter of people (issue 42).
  users: ['commissions', 'media', 'safety'],
  // Block, mute and muted words (issue 23): its own tables, and the conditions the other modules' reads add.
  safety: [],
  // Reports and moderation (issue 23): what is reported is a post, a comment or a person, shown as those
  // modules show them; a suspension ends the account's tokens (the users module's account check).
  moderation: ['comments', 'media', 'posts', 'users'],
  // Deleting one's account (issue 24): wrong passwords count with the log-in's; the pictures' files go after.
  'account-deletion': ['auth', 'media'],
  // Two-factor sign-in (issue 24): its own tables; it signs in through the auth service app.ts hands it, and
  // confirms who is there for the sessions module (issue 38).
  'two-factor': ['sessions'],
  // Sessions, LOG OUT and the password change (issue 24): its own table, the account's password hash; the
  // account's security log (issue 38), whose changes are mailed.
  sessions: ['mail'],
  // "Download your data" (issue 24): reads every table of the account itself, through no other module.
  export: [],
  // The Mastodon client API (issue 45): a protocol at the edge, no module imports it; it calls the other modules'
  // services (so their rules apply), reads their tables for Mastodon's shapes, and guards routes by OAuth scopes.
  'mastodon-api': [
    'comments',
    'media',
    'oauth',
    'pins',
    'posts',
    'safety',
    'tags',
    'users',
    // masto-more: notifications, reports, search's remote resolution, scheduled statuses
    'notifications',
    'moderation',
    'federation',
    'drafts',
  ],
};

/** An allow-list must itself be a DAG: a cycle there would permit a cycle between its parts. */
function assertAcyclic(graph, name) {
  const done = new Set();
  const visit = (node, path) => {
    if (path.includes(node)) {
      const cycle = [...path.slice(path.indexOf(node)), node];
      throw new Error(`${name} has a cycle: ${cycle.join(' -> ')}`);
    }
    if (done.has(node)) return;
    for (const next of graph[node] ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  Object.keys(graph).forEach((node) => visit(node, []));
}
assertAcyclic(WEB_FEATURE_DEPENDENCIES, 'WEB_FEATURE_DEPENDENCIES');
assertAcyclic(SERVER_MODULE_DEPENDENCIES, 'SERVER_MODULE_DEPENDENCIES');

/** The files that map addresses to pages: the only ones that import a feature's pages/. */
const WEB_ROUTERS = [
  `${WEB}app/router\\.tsx$`,
  `${WEB}app/layouts/app-layout\\.tsx$`,
  `${WEB}app/rare-pages\\.ts$`,
  `${WEB}main\\.tsx$`,
];

const oneOf = (names) => `(${names.join('|')})`;

const serverModuleRules = Object.entries(SERVER_MODULE_DEPENDENCIES).map(([module, allowed]) => ({
  name: `server-module-${module}`,
  severity: 'error',
  comment:
    `modules/${module} may import ${allowed.length ? allowed.join(', ') : 'no other module'} ` +
    '(SERVER_MODULE_DEPENDENCIES in .dependency-cruiser.cjs): modules form a DAG, and a new arrow between ' +
    'them is added there on purpose, not by accident.',
  from: { path: `${MODULES}${module}/` },
  to: { path: MODULES, pathNot: `${MODULES}${oneOf([module, ...allowed])}/` },
}));

const webFeatureRules = Object.entries(WEB_FEATURE_DEPENDENCIES).map(([feature, allowed]) => ({
  name: `web-feature-${feature}`,
  severity: 'error',
  comment:
    `features/${feature} may import ${allowed.length ? allowed.join(', ') : 'no other feature'} ` +
    '(WEB_FEATURE_DEPENDENCIES in .dependency-cruiser.cjs): features form a DAG, and a new arrow between ' +
    'them is added there on purpose, not by accident.',
  from: { path: `${FEATURES}${feature}/` },
  to: { path: FEATURES, pathNot: `${FEATURES}${oneOf([feature, ...allowed])}/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle ties its modules into one: none of them can be understood, tested or changed alone, ' +
        'and the order they are evaluated in decides what is undefined.',
      from: {},
      to: { circular: true },
    },

    // ── web ──
    ...webFeatureRules,
    {
      name: 'web-feature-undeclared',
      severity: 'error',
      comment:
        'A feature not in WEB_FEATURE_DEPENDENCIES (.dependency-cruiser.cjs) imports no other feature until ' +
        'its arrows are declared there.',
      from: { path: `${FEATURES}([^/]+)/`, pathNot: `${FEATURES}${oneOf(Object.keys(WEB_FEATURE_DEPENDENCIES))}/` },
      to: { path: FEATURES, pathNot: `${FEATURES}$1/` },
    },
    {
      name: 'web-feature-internals',
      severity: 'error',
      comment:
        'Another feature is used through its public faces only, the .ts modules at its top (index.ts, and ' +
        'one for what only some lazy pages need, like posts/grid.ts, so the shell does not load it): its ' +
        'files can then move and change without breaking the features that use it.',
      from: { path: `${FEATURES}([^/]+)/` },
      to: {
        path: FEATURES,
        pathNot: [`${FEATURES}$1/`, `${FEATURES}[^/]+/[^/]+\\.ts$`, `${FEATURES}[^/]+/pages/`],
      },
    },
    {
      name: 'web-outside-feature-internals',
      severity: 'error',
      comment:
        'Outside the features (app, boot, lib, ui), a feature is used through its index.ts only; its pages ' +
        'are lazy routes (web-pages-from-router).',
      from: { path: WEB, pathNot: FEATURES },
      to: { path: FEATURES, pathNot: [`${FEATURES}[^/]+/index\\.ts$`, `${FEATURES}[^/]+/pages/`] },
    },
    {
      name: 'web-pages-from-router',
      severity: 'error',
      comment:
        "A feature's pages/ are loaded lazily by the router (app/router.tsx, the notifications page through " +
        'app/layouts/app-layout.tsx, the pages seldom opened first through app/rare-pages.ts): imported anywhere ' +
        "else, a page's chunk would load with the importer.",
      from: { path: WEB, pathNot: [...WEB_ROUTERS, FEATURES] },
      to: { path: `${FEATURES}[^/]+/pages/` },
    },
    {
      name: 'web-pages-from-router-features',
      severity: 'error',
      comment: "Another feature's pages/ are the router's (see web-pages-from-router).",
      from: { path: `${FEATURES}([^/]+)/` },
      to: { path: `${FEATURES}[^/]+/pages/`, pathNot: `${FEATURES}$1/` },
    },
    {
      name: 'web-lib-ui-below-features',
      severity: 'error',
      comment:
        'lib/ and ui/ are the shared floor every feature stands on: importing a feature, the app shell or the ' +
        'boot script from there would make every feature depend on it (and usually close a cycle).',
      from: { path: `${WEB}(lib|ui)/` },
      to: { path: `${WEB}(features|app|boot)/` },
    },
    {
      name: 'web-boot-light',
      severity: 'error',
      comment:
        'src/boot is built into small classic scripts that run before the app (vite-plugins/boot-script.ts): ' +
        'whatever it imports ships in them, so no feature, app or ui module, no React and no TanStack Query.',
      from: { path: `${WEB}boot/` },
      to: {
        path: [`${WEB}(features|app|ui)/`, '\\.tsx$', 'node_modules/(react|react-dom|react-router|@tanstack)/'],
      },
    },

    // ── server ──
    ...serverModuleRules,
    {
      name: 'server-module-undeclared',
      severity: 'error',
      comment:
        'A module not in SERVER_MODULE_DEPENDENCIES (.dependency-cruiser.cjs) imports no other module until ' +
        'its arrows are declared there.',
      from: { path: `${MODULES}([^/]+)/`, pathNot: `${MODULES}${oneOf(Object.keys(SERVER_MODULE_DEPENDENCIES))}/` },
      to: { path: MODULES, pathNot: `${MODULES}$1/` },
    },
    {
      name: 'server-module-internals',
      severity: 'error',
      comment:
        'Another module uses a module through its index.ts only (its public face): its files can then move ' +
        'and change without breaking the modules that use it.',
      from: { path: `${MODULES}([^/]+)/` },
      to: { path: MODULES, pathNot: [`${MODULES}$1/`, `${MODULES}[^/]+/index\\.ts$`] },
    },
    {
      name: 'server-outside-module-internals',
      severity: 'error',
      comment: 'Outside the modules (app.ts, the seed, the shared tests), a module is used through its index.ts only.',
      from: { path: SERVER, pathNot: MODULES },
      to: { path: MODULES, pathNot: `${MODULES}[^/]+/index\\.ts$` },
    },
    {
      name: 'server-floor',
      severity: 'error',
      comment:
        'lib/ and db/ are the floor everything stands on: they import no event, action, module, plugin or ' +
        'seed, nor config.ts or app.ts (which compose the rest), so anything can use them without a cycle.',
      from: { path: `${SERVER}(lib|db)/` },
      to: { path: `${SERVER}((events|actions|jobs|modules|plugins|seed)/|config\\.ts$|app\\.ts$)` },
    },
    {
      name: 'server-events-below-modules',
      severity: 'error',
      comment:
        'src/events (event types, the bus, publishing SQL, the notification rules) is what modules share to ' +
        'tell each other what changed: it depends on no module, action or plugin.',
      from: { path: `${SERVER}events/` },
      to: { path: `${SERVER}(actions|modules|plugins|seed)/` },
    },
    {
      name: 'server-jobs-below-modules',
      severity: 'error',
      comment:
        'src/jobs is the durable background job queue (issue 37): modules define their kinds of job on it and ' +
        'queue jobs, so it depends on no module, action, event or plugin (only db and lib).',
      from: { path: `${SERVER}jobs/` },
      to: { path: `${SERVER}(events|actions|modules|plugins|seed)/` },
    },
    {
      name: 'server-actions-below-modules',
      severity: 'error',
      comment:
        "src/actions holds the writes that span modules' tables; modules call them, so they import no module " +
        '(only events, db and lib).',
      from: { path: `${SERVER}actions/` },
      to: { path: `${SERVER}(modules|plugins|seed)/` },
    },
    {
      name: 'server-plugins-below-modules',
      severity: 'error',
      comment:
        'plugins/ wire Fastify (auth guards, errors, headers, static files); app.ts hands them what they need ' +
        'from the modules, so they import none.',
      from: { path: `${SERVER}plugins/` },
      to: { path: `${SERVER}(events|actions|jobs|modules|seed)/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '(^|/)dist/'] },
    // Type-only imports count: a cycle through types is still a cycle for the reader.
    tsPreCompilationDeps: true,
    // Absolute: TypeScript resolves the `extends` of a relative tsconfig path against the working directory.
    tsConfig: { fileName: `${__dirname}/apps/web/tsconfig.json` },
    // The server imports './x.js' for './x.ts' (NodeNext); dependency-cruiser 17 resolves that itself (it
    // retries a TypeScript file's unresolved .js import as .ts/.tsx), and its schema refuses an
    // enhanced-resolve `extensionAlias`. The contract is read from its TypeScript source, as the apps do
    // (the `source` condition of its package.json exports).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'types', 'default'],
    },
    // npm workspaces: a workspace also uses the root package.json's (dev) dependencies (vitest, for one).
    combinedDependencies: true,
  },
};
