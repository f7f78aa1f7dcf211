import sharp from 'sharp';
import { mulberry32 } from '../lib/mulberry32.js';

/**
 * The sample posts' generated art: landscapes, colour fields and organic shapes, geometric prints, tall
 * comic strips and pixel art, each drawn from a fixed seed (SVG rasterised by sharp, or raw pixels),
 * so the same seed always gives the same bytes. Nothing is downloaded.
 */
export type ArtKind = 'landscape' | 'colour-field' | 'organic' | 'geometric' | 'comic' | 'pixel-sprite' | 'pixel-scene';

export function makeRng(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    range: (lo: number, hi: number) => lo + (hi - lo) * next(),
    int: (lo: number, hi: number) => Math.floor(lo + (hi - lo + 1) * next()),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
  };
}
export type Rng = ReturnType<typeof makeRng>;

const PALETTES = [
  ['#264653', '#2a9d8f', '#e9c46a', '#f4a261', '#e76f51'],
  ['#1d3557', '#457b9d', '#a8dadc', '#f1faee', '#e63946'],
  ['#3d348b', '#7678ed', '#f7b801', '#f18701', '#f35b04'],
  ['#2b2d42', '#8d99ae', '#edf2f4', '#ef233c', '#d90429'],
  ['#283618', '#606c38', '#fefae0', '#dda15e', '#bc6c25'],
  ['#22223b', '#4a4e69', '#9a8c98', '#c9ada7', '#f2e9e4'],
  ['#006d77', '#83c5be', '#edf6f9', '#ffddd2', '#e29578'],
  ['#5f0f40', '#9a031e', '#fb8b24', '#e36414', '#0f4c5c'],
] as const;

const f = (n: number) => (Math.round(n * 10) / 10).toString();
const svg = (w: number, h: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`;

/** A smooth closed path through the points (Catmull-Rom as cubic Béziers). */
function smoothPath(points: [number, number][], closed: boolean): string {
  const n = points.length;
  const at = (i: number) => points[closed ? (i + n) % n : Math.max(0, Math.min(n - 1, i))]!;
  let d = `M${f(points[0]![0])},${f(points[0]![1])}`;
  for (let i = 0; i < (closed ? n : n - 1); i++) {
    const [p0, p1, p2, p3] = [at(i - 1), at(i), at(i + 1), at(i + 2)];
    d += `C${f(p1[0] + (p2[0] - p0[0]) / 6)},${f(p1[1] + (p2[1] - p0[1]) / 6)} ${f(p2[0] - (p3[0] - p1[0]) / 6)},${f(p2[1] - (p3[1] - p1[1]) / 6)} ${f(p2[0])},${f(p2[1])}`;
  }
  return closed ? d + 'Z' : d;
}

function blob(rng: Rng, cx: number, cy: number, r: number, wobble = 0.3): string {
  const count = rng.int(6, 10);
  const phase = rng.range(0, Math.PI * 2);
  const points: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    const a = phase + (i / count) * Math.PI * 2;
    const rr = r * (1 + rng.range(-wobble, wobble));
    points.push([cx + Math.cos(a) * rr, cy + Math.sin(a) * rr]);
  }
  return smoothPath(points, true);
}

/** A mountain ridge by midpoint displacement, closed along the bottom edge. */
function ridge(rng: Rng, w: number, h: number, base: number, amplitude: number): string {
  const count = 65;
  const y = new Array<number>(count).fill(0);
  y[0] = rng.range(-0.5, 0.5) * amplitude;
  y[count - 1] = rng.range(-0.5, 0.5) * amplitude;
  for (let step = count - 1, amp = amplitude; step > 1; step /= 2, amp *= 0.55) {
    for (let i = step / 2; i < count; i += step)
      y[i] = (y[i - step / 2]! + y[i + step / 2]!) / 2 + rng.range(-1, 1) * amp;
  }
  const points = y.map((v, i): [number, number] => [(i / (count - 1)) * (w + 40) - 20, base + v]);
  return `${smoothPath(points, false)}L${w + 20},${h + 20}L-20,${h + 20}Z`;
}

function landscape(rng: Rng, w: number, h: number): string {
  const p = rng.pick(PALETTES);
  const horizon = h * rng.range(0.55, 0.7);
  const sunX = rng.range(w * 0.2, w * 0.8);
  let body = `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p[0]}"/><stop offset="0.7" stop-color="${p[3]}"/><stop offset="1" stop-color="${p[2]}"/></linearGradient>
    <radialGradient id="sun"><stop offset="0" stop-color="#fff6dc"/><stop offset="0.35" stop-color="${p[2]}" stop-opacity="0.8"/><stop offset="1" stop-color="${p[3]}" stop-opacity="0"/></radialGradient>
    <linearGradient id="water" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p[3]}"/><stop offset="1" stop-color="${p[0]}"/></linearGradient></defs>
    <rect width="${w}" height="${h}" fill="url(#sky)"/><circle cx="${f(sunX)}" cy="${f(horizon - h * 0.2)}" r="${f(h * 0.35)}" fill="url(#sun)"/>
    <circle cx="${f(sunX)}" cy="${f(horizon - h * 0.2)}" r="${f(h * 0.06)}" fill="#fff4d6" opacity="0.9"/>`;
  for (let i = 0; i < 9; i++) {
    body += `<ellipse cx="${f(rng.range(0, w))}" cy="${f(rng.range(h * 0.08, horizon * 0.6))}" rx="${f(rng.range(60, 200))}" ry="${f(rng.range(6, 16))}" fill="#ffffff" opacity="${rng.range(0.1, 0.3).toFixed(2)}"/>`;
  }
  const layers = rng.int(3, 4);
  for (let i = 0; i < layers; i++) {
    const t = (i + 1) / layers;
    const colour = i === layers - 1 ? p[0] : [p[1], p[4], p[0]][i % 3]!;
    body += `<path d="${ridge(rng, w, h, horizon - h * 0.22 * (1 - t), h * 0.12 * (1 - t * 0.5))}" fill="${colour}" opacity="${(0.45 + 0.55 * t).toFixed(2)}"/>`;
  }
  if (rng.next() < 0.6) {
    body += `<rect x="0" y="${f(horizon + h * 0.08)}" width="${w}" height="${h}" fill="url(#water)" opacity="0.9"/>`;
    for (let i = 0; i < 60; i++) {
      const y = rng.range(horizon + h * 0.09, h);
      body += `<rect x="${f(sunX + rng.range(-1, 1) * (y - horizon) * 0.8 - 30)}" y="${f(y)}" width="${f(rng.range(20, 90))}" height="2" fill="#fff1cf" opacity="${rng.range(0.2, 0.6).toFixed(2)}"/>`;
    }
  }
  return body;
}

function colourField(rng: Rng, w: number, h: number): string {
  const p = rng.pick(PALETTES);
  const bands = rng.int(2, 3);
  let body = `<defs><filter id="soft" x="-10%" y="-10%" width="120%" height="120%"><feGaussianBlur stdDeviation="${f(w * 0.012)}"/></filter></defs><rect width="${w}" height="${h}" fill="${p[0]}"/>`;
  let y = h * 0.06;
  for (let i = 0; i < bands; i++) {
    const bh = ((h * 0.88) / bands) * rng.range(0.8, 0.95);
    body += `<rect x="${f(w * 0.08)}" y="${f(y)}" width="${f(w * 0.84)}" height="${f(bh)}" rx="${f(w * 0.02)}" fill="${p[(i + 1 + rng.int(0, 2)) % 5]}" opacity="${rng.range(0.75, 0.95).toFixed(2)}" filter="url(#soft)"/>`;
    y += (h * 0.88) / bands;
  }
  return body;
}

function organic(rng: Rng, w: number, h: number): string {
  const p = rng.pick(PALETTES);
  let body = `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p[4 - rng.int(0, 1)]}"/><stop offset="1" stop-color="${p[2]}"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#bg)"/>`;
  for (let i = 0; i < rng.int(5, 9); i++) {
    body += `<path d="${blob(rng, rng.range(0, w), rng.range(0, h), rng.range(w * 0.1, w * 0.35))}" fill="${rng.pick(p)}" opacity="${rng.range(0.55, 0.9).toFixed(2)}"/>`;
  }
  // Stems and leaves drawn over the shapes, like a cut-paper collage.
  for (let i = 0; i < rng.int(2, 4); i++) {
    const x = rng.range(w * 0.15, w * 0.85);
    const top = rng.range(h * 0.15, h * 0.5);
    const stem: [number, number][] = [
      [x, h + 10],
      [x + rng.range(-40, 40), (h + top) / 2],
      [x + rng.range(-60, 60), top],
    ];
    body += `<path d="${smoothPath(stem, false)}" stroke="${p[0]}" stroke-width="${f(w * 0.008)}" fill="none" stroke-linecap="round"/>`;
    for (let k = 0; k < 4; k++) {
      const ly = top + (k / 4) * (h - top) * 0.6;
      const side = k % 2 ? 1 : -1;
      body += `<ellipse cx="${f(x + side * w * 0.04)}" cy="${f(ly)}" rx="${f(w * 0.05)}" ry="${f(w * 0.016)}" transform="rotate(${side * 30} ${f(x)} ${f(ly)})" fill="${p[1]}"/>`;
    }
  }
  return body;
}

function geometric(rng: Rng, w: number, h: number): string {
  const p = rng.pick(PALETTES);
  const n = rng.int(4, 7);
  const s = w / n;
  let body = `<rect width="${w}" height="${h}" fill="${p[3]}"/>`;
  for (let gy = 0; gy < Math.ceil(h / s); gy++) {
    for (let gx = 0; gx < n; gx++) {
      const [x, y] = [gx * s, gy * s];
      const [bg, fg] = [rng.pick(p), rng.pick(p)];
      body += `<rect x="${f(x)}" y="${f(y)}" width="${f(s + 1)}" height="${f(s + 1)}" fill="${bg}"/>`;
      const shape = rng.int(0, 3);
      const cx = x + (rng.next() < 0.5 ? 0 : s);
      const cy = y + (rng.next() < 0.5 ? 0 : s);
      if (shape === 0 || shape === 1) {
        body += `<clipPath id="c${gx}-${gy}"><rect x="${f(x)}" y="${f(y)}" width="${f(s)}" height="${f(s)}"/></clipPath><circle cx="${f(cx)}" cy="${f(cy)}" r="${f(s)}" fill="${fg}" clip-path="url(#c${gx}-${gy})"/>`;
      } else if (shape === 2) {
        body += `<circle cx="${f(x + s / 2)}" cy="${f(y + s / 2)}" r="${f(s * 0.32)}" fill="${fg}"/>`;
      } else {
        body += `<path d="M${f(x)},${f(y + s)} L${f(x + s)},${f(y)} L${f(x + s)},${f(y + s)} Z" fill="${fg}"/>`;
      }
    }
  }
  return body;
}

/** A tall strip of four stacked panels: a little character, a speech bubble, halftone skies. */
function comic(rng: Rng, w: number, h: number): string {
  const p = rng.pick(PALETTES);
  const gutter = 24;
  const ph = (h - gutter * 5) / 4;
  const skin = rng.pick(['#f1cdb0', '#c98e68', '#8d5a3b', '#f3d3bd']);
  let body = `<defs><pattern id="dots" width="14" height="14" patternUnits="userSpaceOnUse"><circle cx="7" cy="7" r="3" fill="#000" opacity="0.14"/></pattern></defs><rect width="${w}" height="${h}" fill="#fbf7ef"/>`;
  for (let i = 0; i < 4; i++) {
    const [x, y, pw] = [gutter, gutter + i * (ph + gutter), w - gutter * 2];
    const cx = x + pw * rng.range(0.3, 0.7);
    const ground = y + ph * 0.78;
    body += `<clipPath id="p${i}"><rect x="${x}" y="${f(y)}" width="${pw}" height="${f(ph)}"/></clipPath><g clip-path="url(#p${i})">`;
    body += `<rect x="${x}" y="${f(y)}" width="${pw}" height="${f(ph)}" fill="${p[i % 2 ? 2 : 1]}"/><rect x="${x}" y="${f(y)}" width="${pw}" height="${f(ph)}" fill="url(#dots)"/>`;
    body += `<path d="${ridge(rng, w, y + ph, ground, ph * 0.05)}" fill="${p[0]}"/>`;
    // The character: a round body, a head, eyes that look somewhere new in each panel.
    const r = ph * 0.16;
    const look = rng.range(-1, 1) * r * 0.18;
    body += `<ellipse cx="${f(cx)}" cy="${f(ground - r * 0.6)}" rx="${f(r * 0.9)}" ry="${f(r)}" fill="${p[4]}" stroke="#111" stroke-width="5"/>`;
    body += `<circle cx="${f(cx)}" cy="${f(ground - r * 2.1)}" r="${f(r * 0.75)}" fill="${skin}" stroke="#111" stroke-width="5"/>`;
    for (const dx of [-0.28, 0.28]) {
      body += `<circle cx="${f(cx + dx * r)}" cy="${f(ground - r * 2.2)}" r="${f(r * 0.14)}" fill="#fff" stroke="#111" stroke-width="3"/><circle cx="${f(cx + dx * r + look)}" cy="${f(ground - r * 2.2)}" r="${f(r * 0.07)}" fill="#111"/>`;
    }
    const mouth =
      i === 3
        ? `q${f(r * 0.25)},${f(r * 0.3)} ${f(r * 0.5)},0`
        : `q${f(r * 0.25)},${f(rng.range(-0.1, 0.15) * r)} ${f(r * 0.5)},0`;
    body += `<path d="M${f(cx - r * 0.25)},${f(ground - r * 1.8)} ${mouth}" stroke="#111" stroke-width="4" fill="none" stroke-linecap="round"/>`;
    // The speech bubble, its words as scribbled lines.
    const bx = cx < x + pw / 2 ? x + pw * 0.72 : x + pw * 0.3;
    const by = y + ph * 0.25;
    body += `<path d="M${f(bx)},${f(by + ph * 0.12)} L${f(cx)},${f(ground - r * 2.9)} L${f(bx + 20)},${f(by + ph * 0.1)}" fill="#fff" stroke="#111" stroke-width="4"/>`;
    body += `<ellipse cx="${f(bx)}" cy="${f(by)}" rx="${f(pw * 0.22)}" ry="${f(ph * 0.15)}" fill="#fff" stroke="#111" stroke-width="4"/>`;
    for (let line = 0; line < 3; line++) {
      const lw = pw * rng.range(0.18, 0.3);
      body += `<path d="M${f(bx - lw / 2)},${f(by - ph * 0.06 + line * ph * 0.06)} h${f(lw)}" stroke="#333" stroke-width="6" stroke-linecap="round" stroke-dasharray="${rng.int(8, 24)} 8"/>`;
    }
    body += `</g><rect x="${x}" y="${f(y)}" width="${pw}" height="${f(ph)}" fill="none" stroke="#111" stroke-width="7"/>`;
  }
  return body;
}

/** Film grain over a rendered picture, as the hand-made sample pictures have. */
async function withGrain(rng: Rng, picture: Buffer, w: number, h: number): Promise<Buffer> {
  const noise = Buffer.alloc(w * h);
  for (let i = 0; i < noise.length; i++) noise[i] = 128 + Math.round((rng.next() + rng.next() - 1) * 40);
  const grain = await sharp(noise, { raw: { width: w, height: h, channels: 1 } })
    .toColourspace('srgb')
    .png()
    .toBuffer();
  return sharp(picture)
    .composite([{ input: grain, blend: 'soft-light' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A symmetric creature on a 16×16 grid, or a small pixel landscape, scaled up without smoothing. */
async function pixelArt(rng: Rng, kind: 'pixel-sprite' | 'pixel-scene'): Promise<Buffer> {
  const p = rng.pick(PALETTES).map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
  const [gw, gh, scale] = kind === 'pixel-sprite' ? [16, 16, 48] : [64, 48, 15];
  const grid = Buffer.alloc(gw * gh * 3);
  const put = (x: number, y: number, c: number[]) => grid.set(c, (y * gw + x) * 3);
  if (kind === 'pixel-sprite') {
    const cells: number[][] = [];
    for (let y = 0; y < gh; y++) cells.push(Array.from({ length: gw / 2 }, () => 0));
    for (let y = 3; y < gh - 3; y++) {
      for (let x = 3; x < gw / 2; x++)
        cells[y]![x] = rng.next() < 0.55 - Math.abs(y - gh / 2) * 0.03 ? rng.int(1, 2) : 0;
    }
    cells[6]![5] = 3; // an eye
    for (let y = 0; y < gh; y++) {
      for (let x = 0; x < gw; x++) {
        const v = cells[y]![x < gw / 2 ? x : gw - 1 - x]!;
        const edge =
          v === 0 &&
          [
            [0, 1],
            [0, -1],
            [1, 0],
            [-1, 0],
          ].some(([dx, dy]) => {
            const [nx, ny] = [x + dx!, y + dy!];
            return nx >= 0 && ny >= 0 && nx < gw && ny < gh && cells[ny]![nx < gw / 2 ? nx : gw - 1 - nx]! > 0;
          });
        put(
          x,
          y,
          edge ? p[0]! : v === 3 ? [255, 255, 255] : v ? p[v + 1]! : (x + y) % 2 ? p[4]! : p[4]!.map((c) => c * 0.9),
        );
      }
    }
  } else {
    const sky = [p[0]!, p[1]!, p[2]!];
    const hills = [rng.int(20, 28), rng.int(28, 34)];
    const sun = [rng.int(8, 56), rng.int(6, 14)] as const;
    for (let y = 0; y < gh; y++) {
      for (let x = 0; x < gw; x++) {
        let c = sky[Math.min(2, Math.floor((y / 24) * 3))]!;
        if ((x - sun[0]) ** 2 + (y - sun[1]) ** 2 < 20) c = [255, 240, 200];
        if (y > hills[0]! + Math.round(Math.sin(x / 6) * 4)) c = p[3]!;
        if (y > hills[1]! + Math.round(Math.sin(x / 4 + 1) * 2)) c = p[4]!;
        if (y > 40) c = (x + y) % 3 ? p[0]! : p[1]!;
        put(x, y, c);
      }
    }
  }
  return sharp(grid, { raw: { width: gw, height: gh, channels: 3 } })
    .resize(gw * scale, gh * scale, { kernel: 'nearest' })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

export const ART_SIZES: Record<ArtKind, [number, number]> = {
  landscape: [1080, 720],
  'colour-field': [864, 1080],
  organic: [864, 1080],
  geometric: [1080, 1080],
  comic: [600, 1800],
  'pixel-sprite': [768, 768],
  'pixel-scene': [960, 720],
};

/** The picture of one sample post: a JPEG (painted kinds) or a PNG (pixel art). */
export async function drawArt(kind: ArtKind, seed: number): Promise<Buffer> {
  const rng = makeRng(seed);
  if (kind === 'pixel-sprite' || kind === 'pixel-scene') return pixelArt(rng, kind);
  const [w, h] = ART_SIZES[kind];
  const draw = { landscape, 'colour-field': colourField, organic, geometric, comic }[kind];
  const picture = await sharp(Buffer.from(svg(w, h, draw(rng, w, h))))
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer();
  return withGrain(rng, picture, w, h);
}
