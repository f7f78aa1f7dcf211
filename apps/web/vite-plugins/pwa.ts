import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sharp, SharpOptions } from 'sharp';
import type { Plugin } from 'vite';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { WORDS_FILE_PREFIX } from '../src/lib/words-protocol.ts';

/**
 * The installable app (issue 44, docs/pwa.md): the web app manifest, the service worker (src/sw/sw.ts, built
 * by vite-plugin-pwa with the list of the build's files injected), and the icons, screenshots and iOS splash
 * screens drawn at build time from the committed SVGs in pwa/ (sharp): nothing generated is committed.
 */

/** The light theme's background (src/styles/themes.css); the dark one's goes to `<meta name="theme-color">`. */
const LIGHT_BG = '#f2efeb';
const DARK_BG = '#28231d';

/** What the build draws: [file, source, width, height]. Under pwa/ in the build, served `no-cache` (not hashed). */
const ICONS = [
  ['pwa/icon-192.png', 'icon.svg', 192, 192],
  ['pwa/icon-512.png', 'icon.svg', 512, 512],
  ['pwa/maskable-192.png', 'icon-maskable.svg', 192, 192],
  ['pwa/maskable-512.png', 'icon-maskable.svg', 512, 512],
  ['pwa/apple-touch-icon-180.png', 'icon-maskable.svg', 180, 180],
  ['pwa/favicon-32.png', 'icon.svg', 32, 32],
] as const;

/** iOS splash screens (portrait, device pixels): the iPhones of the last years and a common iPad. */
export const SPLASH_SIZES = [
  { width: 1170, height: 2532, dpr: 3 }, // iPhone 12–14
  { width: 1179, height: 2556, dpr: 3 }, // iPhone 14 Pro, 15, 16
  { width: 1290, height: 2796, dpr: 3 }, // iPhone 14 Pro Max, 15 Plus/Pro Max, 16 Plus
  { width: 750, height: 1334, dpr: 2 }, // iPhone SE
  { width: 1640, height: 2360, dpr: 2 }, // iPad Air
] as const;

const SCREENSHOTS = [
  { file: 'pwa/screenshot-narrow.png', width: 750, height: 1334, formFactor: 'narrow', columns: 2 },
  { file: 'pwa/screenshot-wide.png', width: 1600, height: 900, formFactor: 'wide', columns: 5 },
] as const;

const splashFile = (size: (typeof SPLASH_SIZES)[number], theme: 'light' | 'dark') =>
  `pwa/splash-${size.width}x${size.height}-${theme}.png`;

export const manifest: Partial<ManifestOptions> = {
  id: '/',
  name: 'Share Arts',
  short_name: 'Share Arts',
  description: 'Share your art, follow artists and get inspired.',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  lang: 'en',
  theme_color: LIGHT_BG,
  background_color: LIGHT_BG,
  categories: ['art', 'social', 'photo'],
  icons: [
    { src: '/pwa/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/pwa/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/pwa/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
    { src: '/pwa/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
  ],
  shortcuts: [
    {
      name: 'Add Post',
      short_name: 'Add Post',
      description: 'Share a new work',
      url: '/?compose=1',
      icons: [{ src: '/pwa/icon-192.png', sizes: '192x192', type: 'image/png' }],
    },
    {
      name: 'Notifications',
      short_name: 'Notifications',
      url: '/notifications',
      icons: [{ src: '/pwa/icon-192.png', sizes: '192x192', type: 'image/png' }],
    },
  ],
  screenshots: SCREENSHOTS.map((shot) => ({
    src: `/${shot.file}`,
    sizes: `${shot.width}x${shot.height}`,
    type: 'image/png',
    form_factor: shot.formFactor,
    label: 'Works from artists you follow, on Home',
  })),
  // Web Share Target: the phone's gallery (or any app) shares pictures, text and links to the composer. The
  // service worker takes the POST (src/sw/share-target.ts); without one the server answers it
  // (apps/server/src/plugins/share-target.ts).
  share_target: {
    action: '/share-target',
    method: 'POST',
    enctype: 'multipart/form-data',
    params: { title: 'title', text: 'text', url: 'url', files: [{ name: 'files', accept: ['image/*'] }] },
  },
};

/** The screenshot SVG in one size: the header, the mark and a grid of tiles in the app's colours. */
function screenshotSvg(template: string, width: number, height: number, columns: number): string {
  const header = Math.round(height * (columns > 2 ? 0.09 : 0.07));
  const pad = Math.round(width * 0.03);
  const gap = Math.round(pad / 2);
  const tile = Math.floor((width - 2 * pad - (columns - 1) * gap) / columns);
  const colours = ['#d6806a', '#8fa7b3', '#c9b37e', '#6f8f72', '#b48aa8', '#e0a96d', '#5d6d8c'];
  const tiles: string[] = [];
  for (let row = 0, y = header + pad; y < height; row += 1, y += tile + gap) {
    for (let column = 0; column < columns; column += 1) {
      const x = pad + column * (tile + gap);
      const fill = colours[(row * columns + column) % colours.length];
      tiles.push(
        `<rect x="${x}" y="${y}" width="${tile}" height="${tile}" rx="${Math.round(tile / 24)}" fill="${fill}"/>`,
      );
    }
  }
  const markScale = (header * 0.6) / 32;
  const values: Record<string, string | number> = {
    width,
    height,
    header,
    pad,
    markY: Math.round(header * 0.2),
    markScale,
    titleX: Math.round(pad + header * 0.8),
    titleY: Math.round(header * 0.62),
    titleSize: Math.round(header * 0.36),
    tiles: tiles.join(''),
  };
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));
}

/** A splash screen: the background of the theme with the icon in the middle. */
type SharpFn = (input?: Buffer | SharpOptions, options?: SharpOptions) => Sharp;

async function splashPng(
  sharp: SharpFn,
  icon: Buffer,
  width: number,
  height: number,
  background: string,
): Promise<Buffer> {
  const side = Math.round(Math.min(width, height) * 0.3);
  const mark = await sharp(icon, { density: 300 }).resize(side, side).png().toBuffer();
  return sharp({ create: { width, height, channels: 4, background } })
    .composite([{ input: mark, left: Math.round((width - side) / 2), top: Math.round((height - side) / 2) }])
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** Draws the icons, screenshots and splash screens into the build (client build only). */
function pwaAssets(root: string): Plugin {
  return {
    name: 'share-arts:pwa-assets',
    apply: 'build',
    async generateBundle() {
      const sharp = (await import('sharp')).default as SharpFn;
      const read = (name: string) => readFile(path.join(root, 'pwa', name));
      const sources = new Map<string, Buffer>();
      const source = async (name: string) => {
        let svg = sources.get(name);
        if (!svg) sources.set(name, (svg = await read(name)));
        return svg;
      };
      const emit = (fileName: string, source: Buffer) => this.emitFile({ type: 'asset', fileName, source });
      await Promise.all(
        ICONS.map(async ([file, svg, width, height]) =>
          emit(
            file,
            await sharp(await source(svg), { density: 300 })
              .resize(width, height)
              .png()
              .toBuffer(),
          ),
        ),
      );
      const template = (await read('screenshot.svg')).toString('utf8');
      await Promise.all(
        SCREENSHOTS.map(async (shot) =>
          emit(
            shot.file,
            await sharp(Buffer.from(screenshotSvg(template, shot.width, shot.height, shot.columns)))
              .png({ compressionLevel: 9 })
              .toBuffer(),
          ),
        ),
      );
      const icon = await source('icon.svg');
      await Promise.all(
        SPLASH_SIZES.flatMap((size) =>
          (['light', 'dark'] as const).map(async (theme) =>
            emit(
              splashFile(size, theme),
              await splashPng(sharp, icon, size.width, size.height, theme === 'light' ? LIGHT_BG : DARK_BG),
            ),
          ),
        ),
      );
    },
    transformIndexHtml() {
      // iOS's splash screens: one link per size and theme, matched by the device's size in CSS pixels.
      return SPLASH_SIZES.flatMap((size) =>
        (['light', 'dark'] as const).map((theme) => ({
          tag: 'link',
          injectTo: 'head' as const,
          attrs: {
            rel: 'apple-touch-startup-image',
            href: `/${splashFile(size, theme)}`,
            media:
              `(device-width: ${size.width / size.dpr}px) and (device-height: ${size.height / size.dpr}px) and ` +
              `(-webkit-device-pixel-ratio: ${size.dpr}) and (orientation: portrait) and (prefers-color-scheme: ${theme})`,
          },
        })),
      );
    },
  };
}

/** The client build's PWA plugins: the worker and manifest (vite-plugin-pwa), and the drawn assets. */
export function pwa(root: string): Plugin[] {
  return [
    pwaAssets(root),
    ...VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      // The app registers the worker itself, after the first paint (src/lib/pwa/register.ts).
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      manifest,
      includeManifestIcons: false,
      injectManifest: {
        // The shell and every hashed chunk and stylesheet (the routes' too: a repeat visit of any page paints
        // from the cache); not the compressed copies, the drawn PNGs (fetched when shown) or the server's files, nor
        // the chunks' words in the four other languages (the worker keeps those of the person's as they load).
        globPatterns: ['index.html', 'assets/**/*.{js,css}', 'favicon.svg', 'pwa/icon-192.png'],
        globIgnores: ['**/*.br', '**/*.gz', 'shared-page-styles.json', `assets/${WORDS_FILE_PREFIX}*`],
        // The hashed files need no revision of their own: their name changes with their content.
        dontCacheBustURLsMatching: /^assets\//,
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ];
}
