import path from 'node:path';
import { normalizePath, type Rolldown } from 'vite';

type ChunkingContext = Parameters<Extract<Rolldown.CodeSplittingGroup['name'], (...args: never[]) => unknown>>[1];

/** The modules (from apps/web) that start each family of pages. */
const ROOTS = {
  entry: ['src/main.tsx'],
  landing: ['src/features/landing/pages/standalone-landing.tsx'],
  // The theme too: the toaster (fetched on the first use of a page, sign-in pages included) follows it.
  providers: ['src/app/providers.tsx', 'src/lib/theme.ts'],
  auth: [
    'src/app/layouts/auth-layout.tsx',
    'src/features/auth/pages/login-page.tsx',
    'src/features/auth/pages/signup-page.tsx',
  ],
  shell: ['src/app/guards/require-auth.tsx', 'src/app/layouts/app-layout.tsx'],
  mockman: ['src/features/mockman/pages/mockman-page.tsx'],
  // Home: its icons (the sort select's, Add Post's) go with the shell's, not with the other pages' icons.
  home: ['src/features/feed/pages/home-page.tsx'],
};

const LUCIDE_INDEX = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/;
const LUCIDE_ICONS = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/;

/** lucide-react's export names (Heart, HeartIcon, LucideHeart, aliases like MoreHorizontal) → icon module ids. */
const iconModules = new Map<string, Map<string, string>>();
function iconModulesOf(indexId: string, code: string): Map<string, string> {
  let modules = iconModules.get(indexId);
  if (!modules) {
    modules = new Map();
    const folder = path.dirname(indexId);
    for (const [, names, file] of code.matchAll(/export \{([^}]*)\} from '\.\/icons\/([^']+)'/g)) {
      const id = normalizePath(path.join(folder, 'icons', file!));
      for (const name of names!.split(',')) modules.set(name.trim().replace(/^default as /, ''), id);
    }
    iconModules.set(indexId, modules);
  }
  return modules;
}

/**
 * The icon modules a module names in its `import { … } from 'lucide-react'` (none when it does not import
 * lucide-react); when its imports cannot be read, every icon the index imports, as before.
 */
function iconsImportedBy(info: Rolldown.ModuleInfo | null, ctx: ChunkingContext): string[] {
  const indexId = info?.importedIds.find((imported) => LUCIDE_INDEX.test(imported));
  if (!info || !indexId) return [];
  const index = ctx.getModuleInfo(indexId);
  const every = () => (index?.importedIds ?? []).filter((imported) => LUCIDE_ICONS.test(imported));
  const imports = [...(info.code ?? '').matchAll(/import\s*\{([^}]*)\}\s*from\s*["']lucide-react["']/g)];
  if (!index?.code || imports.length === 0) return every();
  const modules = iconModulesOf(indexId, index.code);
  const icons: string[] = [];
  for (const [, names] of imports) {
    for (const specifier of names!.split(',')) {
      const name = specifier
        .replace(/\btype\b/, '')
        .split(/\s+as\s+/)[0]!
        .trim();
      if (!name) continue;
      const icon = modules.get(name);
      if (!icon) return every();
      icons.push(icon);
    }
  }
  return icons;
}

/**
 * A few chunks instead of a score of small ones. Left alone, the bundler splits the code by the exact set
 * of lazy routes using each module, so the feed's first load asked for 23 scripts, each a round trip
 * (6 at a time over HTTP/1.1). Grouped by page family:
 *
 * - `providers`: TanStack Query, the session, the API client and what the sign-in pages share with the
 *   signed-in ones; every page but /landing loads it.
 * - `shell`: the signed-in layout and everything it draws (header, menus, suggestions, the posts feature
 *   it shares with every feed); every signed-in page loads it.
 * - `icons`: the icons, which the public Mockman page shares with the shell (so it does not load the shell).
 *
 * What the entry or /landing use stays where it is (the /landing budget), and each page keeps its own chunk.
 */
export function chunkGroups(root: string): Rolldown.CodeSplittingGroup[] {
  // One chunking pass shares one context: the families are computed once per pass (and build).
  const familiesOf = new WeakMap<ChunkingContext, Record<keyof typeof ROOTS, Set<string>>>();

  const closure = (ids: string[], ctx: ChunkingContext) => {
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      const info = ctx.getModuleInfo(id);
      const icons = LUCIDE_INDEX.test(id) ? [] : iconsImportedBy(info, ctx);
      for (const imported of info?.importedIds ?? []) {
        // lucide-react's index imports every icon: follow it to its runtime only, and each importer to the
        // icons it names (all of them when its import cannot be read).
        if (LUCIDE_INDEX.test(id) && LUCIDE_ICONS.test(imported)) continue;
        visit(imported);
      }
      icons.forEach(visit);
    };
    ids.forEach(visit);
    return seen;
  };

  const family = (id: string, ctx: ChunkingContext) => {
    let families = familiesOf.get(ctx);
    if (!families) {
      const ids = (modules: string[]) => modules.map((module) => normalizePath(path.join(root, module)));
      families = Object.fromEntries(
        Object.entries(ROOTS).map(([name, modules]) => [name, closure(ids(modules), ctx)]),
      ) as Record<keyof typeof ROOTS, Set<string>>;
      familiesOf.set(ctx, families);
    }
    const { entry, landing, providers, auth, shell, mockman, home } = families;
    // The contract is imported through its index, which the entry imports too, so its modules look used by
    // everything. Its toast messages serve the sign-in pages and the signed-in ones; of its schema modules
    // only constants are left (see pure-schemas.ts), which the signed-in pages read (SEARCH_LIMITS, MEDIA_LIMITS).
    if (/[\\/]packages[\\/]contract[\\/]src[\\/]messages\.ts$/.test(id)) return 'providers';
    // The limits, sorts, storage keys and the live socket's constants serve the same pages; the entry and
    // /landing read only the name and the tagline (brand.ts).
    if (/[\\/]packages[\\/]contract[\\/]src[\\/]constants\.ts$/.test(id)) return 'providers';
    // The account's own messages (re-authentication, deletion) serve Settings only: a chunk it alone loads.
    if (/[\\/]packages[\\/]contract[\\/]src[\\/]schemas[\\/](security|account-deletion)\.ts$/.test(id))
      return 'account-schemas';
    if (/[\\/]packages[\\/]contract[\\/]src[\\/]schemas[\\/]/.test(id)) return 'shell';
    // The pictures' shapes and sizes (shared with the server's preload of a post page's picture) are drawn
    // by the posts the shell shows; alone they were a chunk of 348 bytes, one more request before the feed.
    if (/[\\/]packages[\\/]contract[\\/]src[\\/]picture-layout\.ts$/.test(id)) return 'shell';
    if (entry.has(id) || landing.has(id)) return null;
    if (providers.has(id) || (shell.has(id) && auth.has(id))) return 'providers';
    if (shell.has(id) && mockman.has(id)) return 'icons';
    if (shell.has(id)) return 'shell';
    // The icons the other pages draw, together: one request for a page that needs any, not one per icon.
    if (LUCIDE_ICONS.test(id)) return home.has(id) ? 'shell' : 'page-icons';
    return null;
  };

  return [{ name: family, includeDependenciesRecursively: false }];
}
