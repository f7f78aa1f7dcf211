#!/usr/bin/env node
// Renders the sample pictures the seed data points at: twelve avatars, four post pictures and the two
// defaults. Everything is drawn here from SVG composed in code and rasterised by sharp; a fixed seed
// per picture keeps the output byte-for-byte reproducible, so re-running it only changes files when
// the drawing code changes. Nothing is downloaded.
//
// Usage: node scripts/generate-seed-art.mjs [assetsDir]  (sample art to <assetsDir>/seed, defaults to <assetsDir>/defaults)
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

const root = resolve(import.meta.dirname, '..');
const assetsDir = resolve(process.argv[2] ?? join(root, 'apps/server/assets'));

// --- randomness -------------------------------------------------------------------------------

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeRng(seed) {
  const next = mulberry32(seed);
  const rng = {
    next,
    range: (lo, hi) => lo + (hi - lo) * next(),
    int: (lo, hi) => Math.floor(lo + (hi - lo + 1) * next()),
    pick: (list) => list[Math.floor(next() * list.length)],
    gauss: () => {
      const u = Math.max(next(), 1e-9);
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
  return rng;
}

// --- small drawing helpers ---------------------------------------------------------------------

const f = (n) => (Math.round(n * 10) / 10).toString();

function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
function rgbToHex([r, g, b]) {
  return (
    '#' +
    [r, g, b]
      .map((c) =>
        Math.max(0, Math.min(255, Math.round(c)))
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')
  );
}
function mix(a, b, t) {
  const x = hexToRgb(a);
  const y = hexToRgb(b);
  return rgbToHex(x.map((c, i) => c + (y[i] - c) * t));
}
function jitterColor(rng, hex, amount) {
  return rgbToHex(hexToRgb(hex).map((c) => c + rng.gauss() * amount));
}

/** A smooth closed path through points (Catmull-Rom turned into cubic Béziers). */
function closedSmooth(points) {
  const n = points.length;
  let d = `M${f(points[0][0])},${f(points[0][1])}`;
  for (let i = 0; i < n; i++) {
    const p0 = points[(i - 1 + n) % n];
    const p1 = points[i];
    const p2 = points[(i + 1) % n];
    const p3 = points[(i + 2) % n];
    const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += `C${f(c1[0])},${f(c1[1])} ${f(c2[0])},${f(c2[1])} ${f(p2[0])},${f(p2[1])}`;
  }
  return d + 'Z';
}

/** A smooth open path through points. */
function openSmooth(points) {
  const n = points.length;
  let d = `M${f(points[0][0])},${f(points[0][1])}`;
  for (let i = 0; i < n - 1; i++) {
    const p0 = points[Math.max(i - 1, 0)];
    const p1 = points[i];
    const p2 = points[i + 1];
    const p3 = points[Math.min(i + 2, n - 1)];
    const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += `C${f(c1[0])},${f(c1[1])} ${f(c2[0])},${f(c2[1])} ${f(p2[0])},${f(p2[1])}`;
  }
  return d;
}

/** An organic blob around (cx, cy). */
function blob(rng, cx, cy, r, wobble = 0.25, count = 9) {
  const pts = [];
  const phase = rng.range(0, Math.PI * 2);
  for (let i = 0; i < count; i++) {
    const a = phase + (i / count) * Math.PI * 2;
    const rr = r * (1 + rng.range(-wobble, wobble));
    pts.push([cx + Math.cos(a) * rr, cy + Math.sin(a) * rr]);
  }
  return closedSmooth(pts);
}

/** A 1-D fractal ridge line (midpoint displacement), `count` = 2^k + 1 samples. */
function ridge(rng, count, roughness, amplitude) {
  const h = new Array(count).fill(0);
  h[0] = rng.gauss() * amplitude * 0.5;
  h[count - 1] = rng.gauss() * amplitude * 0.5;
  let step = count - 1;
  let amp = amplitude;
  while (step > 1) {
    const half = step / 2;
    for (let i = half; i < count; i += step) {
      h[i] = (h[i - half] + h[i + half]) / 2 + rng.gauss() * amp;
    }
    amp *= roughness;
    step = half;
  }
  return h;
}

function ridgePath(rng, width, height, baseY, amplitude, roughness = 0.55) {
  const count = 129;
  const h = ridge(rng, count, roughness, amplitude);
  const pts = h.map((v, i) => [(i / (count - 1)) * (width + 40) - 20, baseY + v]);
  return `${openSmooth(pts)}L${width + 20},${height + 20}L-20,${height + 20}Z`;
}

/** A brush-like stroke: a curved polyline with round caps. */
function brushStroke(rng, x, y, len, angle, width, color, opacity) {
  const bend = rng.range(-0.35, 0.35);
  const pts = [];
  const steps = 4;
  for (let i = 0; i <= steps; i++) {
    const t = i / steps - 0.5;
    const a = angle + bend * t * 2;
    pts.push([x + Math.cos(a) * len * t, y + Math.sin(a) * len * t + Math.sin(t * Math.PI) * bend * len * 0.2]);
  }
  return `<path d="${openSmooth(pts)}" stroke="${color}" stroke-width="${f(width)}" stroke-opacity="${opacity.toFixed(2)}" fill="none" stroke-linecap="round"/>`;
}

const svg = (w, h, body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`;

/** Filters shared by the paintings: rough painted edges and a canvas weave. */
function paintFilters(seed, scale = 14) {
  return `
  <filter id="rough" x="-5%" y="-5%" width="110%" height="110%">
    <feTurbulence type="fractalNoise" baseFrequency="0.012 0.02" numOctaves="3" seed="${seed}" result="n"/>
    <feDisplacementMap in="SourceGraphic" in2="n" scale="${scale}" xChannelSelector="R" yChannelSelector="G"/>
  </filter>
  <filter id="soft"><feGaussianBlur stdDeviation="6"/></filter>
  <filter id="softer"><feGaussianBlur stdDeviation="18"/></filter>
  <filter id="glow" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="40"/></filter>`;
}

// --- grain and output --------------------------------------------------------------------------

/** Monochrome film/paper grain as a raw buffer, blended over the picture in soft-light. */
function grainBuffer(rng, w, h, strength) {
  const buf = Buffer.alloc(w * h);
  for (let i = 0; i < buf.length; i++) {
    buf[i] = Math.max(0, Math.min(255, 128 + rng.gauss() * strength));
  }
  return buf;
}

async function render(name, w, h, body, { seed, grain = 10, grainBlur = 0.6, format = 'jpeg' }) {
  const rng = makeRng(seed ^ 0x9e3779b9);
  const flat = await sharp(Buffer.from(svg(w, h, body)))
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer();
  let pipeline = sharp(flat);
  if (grain > 0) {
    let noise = sharp(grainBuffer(rng, w, h, grain), { raw: { width: w, height: h, channels: 1 } });
    if (grainBlur > 0.3) noise = noise.blur(grainBlur);
    const noiseRgb = await noise.toColourspace('srgb').png().toBuffer();
    pipeline = sharp(flat).composite([{ input: noiseRgb, blend: 'soft-light' }]);
  }
  const file = join(assetsDir, name.startsWith('default-') ? 'defaults' : 'seed', name);
  if (format === 'png') {
    await pipeline.toColourspace('srgb').png({ compressionLevel: 9 }).toFile(file);
  } else {
    await pipeline
      .toColourspace('srgb')
      .withIccProfile('srgb')
      .jpeg({ quality: 85, chromaSubsampling: '4:4:4', mozjpeg: true })
      .toFile(file);
  }
  return file;
}

// --- post-1: landscape painting ----------------------------------------------------------------

function landscapePainting(seed) {
  const rng = makeRng(seed);
  const W = 1600;
  const H = 1200;
  const horizon = 780;
  let body = `<defs>${paintFilters(seed, 18)}
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#2f4a7a"/><stop offset="0.38" stop-color="#8a79a8"/>
      <stop offset="0.66" stop-color="#f0a27a"/><stop offset="0.85" stop-color="#ffd29a"/>
      <stop offset="1" stop-color="#ffe8bd"/>
    </linearGradient>
    <radialGradient id="sun" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="#fff6d8"/><stop offset="0.5" stop-color="#ffe0a0" stop-opacity="0.9"/>
      <stop offset="1" stop-color="#ffb07a" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="lake" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#f3b58c"/><stop offset="0.35" stop-color="#a98aa6"/><stop offset="1" stop-color="#2d3f66"/>
    </linearGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#sky)"/>
`;

  // Sky: long horizontal strokes, cooler high up and warmer towards the horizon.
  const skyColors = ['#3c5889', '#6f6fa0', '#a889ad', '#e6a58a', '#f7c493', '#ffe2b0', '#d98f86'];
  let strokes = '';
  for (let i = 0; i < 900; i++) {
    const y = Math.pow(rng.next(), 1.1) * (horizon - 40);
    const band = Math.min(
      skyColors.length - 1,
      Math.floor((y / horizon) * (skyColors.length - 1) + rng.range(-0.6, 0.6)),
    );
    const c = jitterColor(rng, skyColors[Math.max(0, band)], 10);
    strokes += brushStroke(
      rng,
      rng.range(-50, W + 50),
      y,
      rng.range(80, 320),
      rng.range(-0.08, 0.08),
      rng.range(6, 22),
      c,
      rng.range(0.08, 0.28),
    );
  }
  body += `<g filter="url(#rough)">${strokes}</g>`;
  body += `<circle cx="1080" cy="${horizon - 300}" r="300" fill="url(#sun)" filter="url(#glow)"/>
  <circle cx="1080" cy="${horizon - 300}" r="62" fill="#fff4d6" opacity="0.95" filter="url(#soft)"/>`;

  // Clouds: soft stacked blobs lit from the sun side.
  for (let c = 0; c < 6; c++) {
    const cx = rng.range(80, W - 80);
    const cy = rng.range(110, 360);
    const s = rng.range(0.6, 1.3);
    let g = '';
    for (let k = 0; k < 7; k++) {
      g += `<ellipse cx="${f(cx + rng.range(-160, 160) * s)}" cy="${f(cy + rng.range(-14, 14) * s)}" rx="${f(rng.range(60, 140) * s)}" ry="${f(rng.range(12, 26) * s)}" fill="${mix('#b78fae', '#ffd6b0', rng.range(0, 0.8))}" opacity="${rng.range(0.35, 0.6).toFixed(2)}"/>`;
    }
    body += `<g filter="url(#soft)">${g}</g>`;
  }

  // Mountain ranges, far to near: atmospheric perspective towards the light.
  const ranges = [
    { base: horizon - 150, amp: 55, color: '#a58cae', op: 0.75 },
    { base: horizon - 120, amp: 80, color: '#7d6d9a', op: 0.85 },
    { base: horizon - 60, amp: 60, color: '#55507f', op: 0.95 },
    { base: horizon - 10, amp: 30, color: '#37395f', op: 1 },
  ];
  for (const r of ranges) {
    body += `<path d="${ridgePath(rng, W, horizon, r.base, r.amp)}" fill="${r.color}" opacity="${r.op}" filter="url(#rough)"/>`;
    // Light strokes on the slopes for a painted surface.
    let slope = '';
    for (let i = 0; i < 70; i++) {
      slope += brushStroke(
        rng,
        rng.range(0, W),
        r.base + rng.range(10, 90),
        rng.range(30, 110),
        rng.range(-0.6, 0.6),
        rng.range(4, 12),
        mix(r.color, '#ffd6b0', rng.range(0.1, 0.35)),
        rng.range(0.1, 0.3),
      );
    }
    body += `<g filter="url(#rough)" clip-path="none">${slope}</g>`;
  }

  // Lake with horizontal reflection strokes and a glitter path under the sun.
  body += `<rect x="0" y="${horizon}" width="${W}" height="${H - horizon}" fill="url(#lake)"/>`;
  let water = '';
  for (let i = 0; i < 700; i++) {
    const y = horizon + Math.pow(rng.next(), 0.9) * (H - horizon);
    const depth = (y - horizon) / (H - horizon);
    const c = jitterColor(rng, mix('#f0b48e', '#26375c', depth), 14);
    water += brushStroke(
      rng,
      rng.range(-40, W + 40),
      y,
      rng.range(60, 260) * (0.6 + depth),
      rng.range(-0.02, 0.02),
      rng.range(3, 10) * (0.5 + depth),
      c,
      rng.range(0.15, 0.4),
    );
  }
  for (let i = 0; i < 160; i++) {
    const y = horizon + Math.pow(rng.next(), 1.6) * (H - horizon) * 0.8;
    const spread = 30 + (y - horizon) * 0.45;
    water += brushStroke(
      rng,
      1080 + rng.gauss() * spread,
      y,
      rng.range(20, 90),
      0,
      rng.range(2, 6),
      '#fff1cf',
      rng.range(0.3, 0.8),
    );
  }
  body += `<g filter="url(#rough)">${water}</g>`;

  // Foreground shore with reeds, dark and warm.
  body += `<path d="${ridgePath(rng, W, H, H - 90, 40, 0.6)}" fill="#1f2440" filter="url(#rough)"/>`;
  let reeds = '';
  for (let i = 0; i < 140; i++) {
    const x = rng.range(0, 520) + (rng.next() < 0.35 ? 1100 : 0);
    const base = H - rng.range(20, 70);
    const top = base - rng.range(80, 260);
    const lean = rng.range(-40, 40);
    reeds += `<path d="M${f(x)},${f(base)} Q${f(x + lean * 0.3)},${f((base + top) / 2)} ${f(x + lean)},${f(top)}" stroke="${jitterColor(rng, '#232646', 8)}" stroke-width="${f(rng.range(2, 5))}" fill="none" stroke-linecap="round"/>`;
  }
  body += `<g filter="url(#rough)">${reeds}</g>`;
  // Two birds far away.
  body += `<g stroke="#3a3357" stroke-width="4" fill="none" stroke-linecap="round">
    <path d="M560,300 q22,-18 40,0 q18,-18 40,0"/><path d="M650,250 q16,-13 30,0 q14,-13 30,0"/></g>`;
  return body;
}

// --- post-2: portrait-format botanical still life ---------------------------------------------

function botanicalStillLife(seed) {
  const rng = makeRng(seed);
  const W = 1200;
  const H = 1600;
  let body = `<defs>${paintFilters(seed, 10)}
    <linearGradient id="wall" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#e9dcc7"/><stop offset="1" stop-color="#d7c3a6"/>
    </linearGradient>
    <linearGradient id="vase" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#1d4e5c"/><stop offset="0.45" stop-color="#2f7a83"/><stop offset="1" stop-color="#16394a"/>
    </linearGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#wall)"/>
  <rect x="0" y="1180" width="${W}" height="${H - 1180}" fill="#b5553c"/>
  <path d="M0,1180 L${W},1180" stroke="#7f3826" stroke-width="6" opacity="0.5"/>`;
  // Big arch shape behind, a window of colour.
  body += `<path d="M210,1180 L210,520 A390,390 0 0 1 990,520 L990,1180 Z" fill="#efb45a" opacity="0.9" filter="url(#rough)"/>`;
  // Wall brushwork.
  let wall = '';
  for (let i = 0; i < 400; i++) {
    wall += brushStroke(
      rng,
      rng.range(0, W),
      rng.range(0, 1180),
      rng.range(60, 200),
      rng.range(-1, 1),
      rng.range(10, 30),
      jitterColor(rng, rng.next() < 0.5 ? '#eadfcb' : '#f3c877', 10),
      rng.range(0.05, 0.15),
    );
  }
  body += `<g filter="url(#rough)">${wall}</g>`;

  // Stems from the vase mouth, leaves along them, flowers at the ends.
  const mouth = [600, 1000];
  let stems = '';
  let leaves = '';
  let flowers = '';
  const flowerPalette = ['#e2574c', '#f29e4c', '#f6d6ad', '#c0392b', '#f7b7a3', '#fbe3a2'];
  for (let s = 0; s < 11; s++) {
    const angle = -Math.PI / 2 + rng.range(-0.85, 0.85);
    const len = rng.range(380, 760);
    const end = [mouth[0] + Math.cos(angle) * len, mouth[1] + Math.sin(angle) * len];
    const ctrl = [mouth[0] + Math.cos(angle) * len * 0.4 + rng.range(-80, 80), mouth[1] + Math.sin(angle) * len * 0.5];
    stems += `<path d="M${mouth[0] + rng.range(-30, 30)},${mouth[1]} Q${f(ctrl[0])},${f(ctrl[1])} ${f(end[0])},${f(end[1])}" stroke="${jitterColor(rng, '#3f6b3a', 12)}" stroke-width="${f(rng.range(5, 9))}" fill="none" stroke-linecap="round"/>`;
    for (let l = 0; l < 3; l++) {
      const t = rng.range(0.3, 0.85);
      const px = (1 - t) * (1 - t) * mouth[0] + 2 * (1 - t) * t * ctrl[0] + t * t * end[0];
      const py = (1 - t) * (1 - t) * mouth[1] + 2 * (1 - t) * t * ctrl[1] + t * t * end[1];
      const side = rng.next() < 0.5 ? -1 : 1;
      const la = angle + side * rng.range(0.6, 1.1);
      const ll = rng.range(70, 140);
      const tip = [px + Math.cos(la) * ll, py + Math.sin(la) * ll];
      const nx = -Math.sin(la) * ll * 0.28;
      const ny = Math.cos(la) * ll * 0.28;
      const mid = [(px + tip[0]) / 2, (py + tip[1]) / 2];
      const green = rng.pick(['#4f7d45', '#2f5d3a', '#7aa05a', '#3b6e5a']);
      leaves += `<path d="M${f(px)},${f(py)} Q${f(mid[0] + nx)},${f(mid[1] + ny)} ${f(tip[0])},${f(tip[1])} Q${f(mid[0] - nx)},${f(mid[1] - ny)} ${f(px)},${f(py)}Z" fill="${green}"/>`;
      leaves += `<path d="M${f(px)},${f(py)} L${f(tip[0])},${f(tip[1])}" stroke="${mix(green, '#e9dcc7', 0.3)}" stroke-width="2" opacity="0.6"/>`;
    }
    // Flower: petals around a centre, or a round bud.
    const petals = rng.int(5, 9);
    const pr = rng.range(38, 78);
    const pc = rng.pick(flowerPalette);
    const rot = rng.range(0, Math.PI);
    if (rng.next() < 0.8) {
      for (let p = 0; p < petals; p++) {
        const a = rot + (p / petals) * Math.PI * 2;
        const cx = end[0] + Math.cos(a) * pr * 0.55;
        const cy = end[1] + Math.sin(a) * pr * 0.55;
        flowers += `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(pr * 0.55)}" ry="${f(pr * 0.3)}" transform="rotate(${f((a * 180) / Math.PI)} ${f(cx)} ${f(cy)})" fill="${jitterColor(rng, pc, 10)}" opacity="0.92"/>`;
      }
      flowers += `<circle cx="${f(end[0])}" cy="${f(end[1])}" r="${f(pr * 0.28)}" fill="${rng.pick(['#5a2e1e', '#f2c14e', '#2b2233'])}"/>`;
    } else {
      flowers += `<path d="${blob(rng, end[0], end[1], pr * 0.6, 0.15, 7)}" fill="${pc}"/>`;
    }
  }
  body += `<g filter="url(#rough)">${stems}${leaves}${flowers}</g>`;

  // Vase with a painted pattern.
  const vase = `M470,1000 C440,1060 380,1120 385,1230 C392,1340 470,1395 600,1395 C730,1395 808,1340 815,1230 C820,1120 760,1060 730,1000 Z`;
  body += `<path d="${vase}" fill="url(#vase)" filter="url(#rough)"/>`;
  body += `<ellipse cx="600" cy="1000" rx="132" ry="20" fill="#143440"/>`;
  let dots = '';
  for (let row = 0; row < 4; row++) {
    for (let k = 0; k < 7; k++) {
      dots += `<circle cx="${f(450 + k * 50 + (row % 2) * 25)}" cy="${f(1150 + row * 50)}" r="${f(rng.range(7, 11))}" fill="#f3d9a4" opacity="0.85"/>`;
    }
  }
  body += `<g clip-path="url(#vaseClip)" filter="url(#rough)">${dots}</g><clipPath id="vaseClip"><path d="${vase}"/></clipPath>`;
  body += `<path d="M520,1060 C490,1140 480,1250 520,1340" stroke="#bfe3de" stroke-width="10" opacity="0.35" fill="none" stroke-linecap="round"/>`;
  // Fallen petals and a lemon on the table.
  body += `<ellipse cx="600" cy="1402" rx="260" ry="28" fill="#6e2c1c" opacity="0.45" filter="url(#soft)"/>`;
  body += `<path d="${blob(rng, 930, 1380, 70, 0.08, 8)}" fill="#f4c534" filter="url(#rough)"/>`;
  body += `<ellipse cx="905" cy="1360" rx="22" ry="10" fill="#fff1a8" opacity="0.6"/>`;
  for (let i = 0; i < 5; i++) {
    const x = rng.range(180, 400);
    const y = rng.range(1300, 1480);
    body += `<ellipse cx="${f(x)}" cy="${f(y)}" rx="28" ry="13" transform="rotate(${f(rng.range(0, 180))} ${f(x)} ${f(y)})" fill="${rng.pick(flowerPalette)}" opacity="0.9"/>`;
  }
  let table = '';
  for (let i = 0; i < 260; i++) {
    table += brushStroke(
      rng,
      rng.range(0, W),
      rng.range(1190, H),
      rng.range(80, 240),
      rng.range(-0.05, 0.05),
      rng.range(6, 18),
      jitterColor(rng, '#b5553c', 18),
      rng.range(0.15, 0.35),
    );
  }
  body = body.replace('<path d="M0,1180', `<g filter="url(#rough)">${table}</g><path d="M0,1180`);
  return body;
}

// --- post-3: square geometric print --------------------------------------------------------------

function geometricPrint(seed) {
  const rng = makeRng(seed);
  const S = 1600;
  const palette = ['#1f3a5f', '#e07a5f', '#f2cc8f', '#81b29a', '#3d405b', '#f4f1de', '#c44536'];
  const paper = '#f4ecdc';
  const n = 5;
  const margin = 110;
  const cell = (S - margin * 2) / n;
  let body = `<defs>${paintFilters(seed, 3)}</defs><rect width="${S}" height="${S}" fill="${paper}"/>`;
  let tiles = '';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const x = margin + c * cell;
      const y = margin + r * cell;
      const bg = rng.pick(palette);
      let fg = rng.pick(palette);
      while (fg === bg) fg = rng.pick(palette);
      let accent = rng.pick(palette);
      while (accent === bg || accent === fg) accent = rng.pick(palette);
      tiles += `<rect x="${f(x)}" y="${f(y)}" width="${f(cell)}" height="${f(cell)}" fill="${bg}"/>`;
      const kind = rng.int(0, 6);
      const rot = rng.int(0, 3) * 90;
      const cx = x + cell / 2;
      const cy = y + cell / 2;
      let shape = '';
      if (kind === 0) {
        shape = `<path d="M${f(x)},${f(y)} L${f(x + cell)},${f(y)} A${f(cell)},${f(cell)} 0 0 1 ${f(x)},${f(y + cell)} Z" fill="${fg}"/>`;
      } else if (kind === 1) {
        shape = `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(cell * 0.36)}" fill="${fg}"/><circle cx="${f(cx)}" cy="${f(cy)}" r="${f(cell * 0.14)}" fill="${accent}"/>`;
      } else if (kind === 2) {
        shape = `<path d="M${f(x)},${f(cy)} A${f(cell / 2)},${f(cell / 2)} 0 0 1 ${f(x + cell)},${f(cy)} Z" fill="${fg}"/><path d="M${f(x)},${f(cy)} A${f(cell / 2)},${f(cell / 2)} 0 0 0 ${f(x + cell)},${f(cy)} Z" fill="${accent}" opacity="0.9"/>`;
      } else if (kind === 3) {
        for (let k = 0; k < 6; k++) {
          shape += `<rect x="${f(x)}" y="${f(y + (k * cell) / 6)}" width="${f(cell)}" height="${f(cell / 12)}" fill="${fg}"/>`;
        }
      } else if (kind === 4) {
        shape = `<path d="M${f(x)},${f(y + cell)} L${f(x + cell)},${f(y)} L${f(x + cell)},${f(y + cell)} Z" fill="${fg}"/><circle cx="${f(x + cell * 0.3)}" cy="${f(y + cell * 0.3)}" r="${f(cell * 0.16)}" fill="${accent}"/>`;
      } else if (kind === 5) {
        for (let k = 4; k >= 1; k--) {
          shape += `<path d="M${f(x)},${f(y + cell)} A${f((cell * k) / 4)},${f((cell * k) / 4)} 0 0 1 ${f(x + (cell * k) / 4)},${f(y + cell - (cell * k) / 4)} L${f(x)},${f(y + cell - (cell * k) / 4)}" fill="none"/>`;
          shape += `<circle cx="${f(x)}" cy="${f(y + cell)}" r="${f((cell * k) / 4)}" fill="${k % 2 ? fg : bg}"/>`;
        }
      } else {
        shape = `<rect x="${f(x + cell * 0.18)}" y="${f(y + cell * 0.18)}" width="${f(cell * 0.64)}" height="${f(cell * 0.64)}" fill="${fg}"/><path d="M${f(x + cell * 0.18)},${f(y + cell * 0.82)} A${f(cell * 0.64)},${f(cell * 0.64)} 0 0 1 ${f(x + cell * 0.82)},${f(y + cell * 0.18)} L${f(x + cell * 0.82)},${f(y + cell * 0.82)} Z" fill="${accent}"/>`;
      }
      tiles += `<g clip-path="url(#c${r}${c})" transform="rotate(${rot} ${f(cx)} ${f(cy)})">${shape}</g>`;
      tiles += `<clipPath id="c${r}${c}"><rect x="${f(x)}" y="${f(y)}" width="${f(cell)}" height="${f(cell)}"/></clipPath>`;
    }
  }
  // Screen-print misregistration: a faint offset copy under the tiles, then slightly rough edges.
  body += `<g opacity="0.18" transform="translate(6 4)">${tiles}</g><g filter="url(#rough)">${tiles}</g>`;
  // Ink speckle.
  let speckle = '';
  for (let i = 0; i < 500; i++) {
    speckle += `<circle cx="${f(rng.range(0, S))}" cy="${f(rng.range(0, S))}" r="${f(rng.range(0.6, 2.2))}" fill="${paper}" opacity="${rng.range(0.3, 0.8).toFixed(2)}"/>`;
  }
  body += speckle;
  return body;
}

// --- post-4: wide dusk scene, photographic ------------------------------------------------------

function duskPhoto(seed) {
  const rng = makeRng(seed);
  const W = 1920;
  const H = 1080;
  const horizon = 640;
  let body = `<defs>${paintFilters(seed, 4)}
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0d1633"/><stop offset="0.35" stop-color="#23315e"/>
      <stop offset="0.62" stop-color="#6a4a7c"/><stop offset="0.8" stop-color="#d9776a"/>
      <stop offset="0.92" stop-color="#f6b26b"/><stop offset="1" stop-color="#ffd59a"/>
    </linearGradient>
    <linearGradient id="sea" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#c98a7a"/><stop offset="0.15" stop-color="#6b4f72"/>
      <stop offset="0.6" stop-color="#1c2547"/><stop offset="1" stop-color="#0a1026"/>
    </linearGradient>
    <radialGradient id="afterglow" cx="0.5" cy="1" r="0.6">
      <stop offset="0" stop-color="#ffcf8a" stop-opacity="0.9"/><stop offset="1" stop-color="#ff8a6a" stop-opacity="0"/>
    </radialGradient>
    <filter id="blur2"><feGaussianBlur stdDeviation="2"/></filter>
    <filter id="blur1"><feGaussianBlur stdDeviation="0.8"/></filter>
    <filter id="bokeh" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="3"/></filter>
  </defs>
  <rect width="${W}" height="${horizon}" fill="url(#sky)"/>
  <ellipse cx="1250" cy="${horizon}" rx="900" ry="300" fill="url(#afterglow)"/>`;
  // Stars, fewer towards the glow.
  let stars = '';
  for (let i = 0; i < 260; i++) {
    const y = Math.pow(rng.next(), 2) * horizon * 0.55;
    stars += `<circle cx="${f(rng.range(0, W))}" cy="${f(y)}" r="${f(rng.range(0.5, 1.6))}" fill="#fff" opacity="${rng.range(0.2, 0.9).toFixed(2)}"/>`;
  }
  body += stars;
  // Thin high clouds catching the last light.
  let clouds = '';
  for (let i = 0; i < 22; i++) {
    const y = rng.range(horizon * 0.45, horizon * 0.85);
    clouds += `<ellipse cx="${f(rng.range(0, W))}" cy="${f(y)}" rx="${f(rng.range(120, 420))}" ry="${f(rng.range(4, 14))}" fill="${mix('#7d4f78', '#ffb38a', (y / horizon - 0.45) * 2.2)}" opacity="${rng.range(0.35, 0.7).toFixed(2)}"/>`;
  }
  body += `<g filter="url(#soft)">${clouds}</g>`;
  // A crescent moon.
  body += `<circle cx="360" cy="170" r="26" fill="#fff5dc"/><circle cx="372" cy="162" r="24" fill="#101a3a"/>`;
  body += `<circle cx="360" cy="170" r="60" fill="#fff5dc" opacity="0.08" filter="url(#soft)"/>`;
  // Distant hills and a city skyline with lit windows.
  body += `<path d="${ridgePath(rng, W, horizon, horizon - 60, 28, 0.5)}" fill="#3b2e52" filter="url(#blur2)"/>`;
  let city = '';
  let windows = '';
  let x = 120;
  while (x < 1500) {
    const bw = rng.range(36, 110);
    const bh = rng.range(30, x > 600 && x < 1000 ? 240 : 140);
    const top = horizon - bh;
    city += `<rect x="${f(x)}" y="${f(top)}" width="${f(bw)}" height="${f(bh + 2)}" fill="${jitterColor(rng, '#1a1830', 5)}"/>`;
    if (rng.next() < 0.15)
      city += `<rect x="${f(x + bw / 2 - 1.5)}" y="${f(top - 40)}" width="3" height="40" fill="#1a1830"/><circle cx="${f(x + bw / 2)}" cy="${f(top - 42)}" r="3" fill="#ff4d4d"/>`;
    for (let wy = top + 8; wy < horizon - 6; wy += 12) {
      for (let wx = x + 6; wx < x + bw - 8; wx += 10) {
        if (rng.next() < 0.22)
          windows += `<rect x="${f(wx)}" y="${f(wy)}" width="4" height="6" fill="${rng.pick(['#ffd88a', '#ffe9b8', '#ffc46b', '#cfe3ff'])}" opacity="${rng.range(0.55, 1).toFixed(2)}"/>`;
      }
    }
    x += bw + rng.range(-6, 14);
  }
  body += `<g filter="url(#blur1)">${city}${windows}</g>`;
  // Sea with the glow and city lights smeared into vertical reflections.
  body += `<rect x="0" y="${horizon}" width="${W}" height="${H - horizon}" fill="url(#sea)"/>`;
  let ripples = '';
  for (let i = 0; i < 1400; i++) {
    const y = horizon + Math.pow(rng.next(), 1.4) * (H - horizon);
    const d = (y - horizon) / (H - horizon);
    const nearGlow = Math.abs(rng.gauss()) * 380;
    const xx = rng.next() < 0.55 ? 1250 + (rng.next() < 0.5 ? -1 : 1) * nearGlow : rng.range(0, W);
    const warm = Math.max(0, 1 - Math.abs(xx - 1250) / 700) * (1 - d);
    const color = mix('#3a3f6e', '#ffc98a', warm);
    ripples += `<rect x="${f(xx)}" y="${f(y)}" width="${f(rng.range(20, 120) * (0.4 + d))}" height="${f(1 + d * 3)}" fill="${color}" opacity="${rng.range(0.2, 0.7).toFixed(2)}"/>`;
  }
  let reflections = '';
  for (let i = 0; i < 160; i++) {
    const rx = rng.range(130, 1500);
    const ry = horizon + rng.range(4, 200);
    reflections += `<rect x="${f(rx)}" y="${f(ry)}" width="${f(rng.range(3, 8))}" height="${f(rng.range(2, 4))}" fill="#ffd88a" opacity="${rng.range(0.2, 0.6).toFixed(2)}"/>`;
  }
  body += `<g filter="url(#blur1)">${ripples}${reflections}</g>`;
  // Foreground: dark rocky shore and a pier with lamps (out-of-focus bokeh).
  body += `<path d="${ridgePath(rng, W, H, H - 70, 30, 0.6)}" fill="#080a16"/>`;
  body += `<path d="M1500,${H} L1560,${H - 210} L1920,${H - 230} L1920,${H} Z" fill="#0b0d1c"/>`;
  body += `<rect x="1540" y="${H - 230}" width="380" height="14" fill="#0f1224"/>`;
  let lamps = '';
  for (let i = 0; i < 5; i++) {
    const lx = 1580 + i * 75;
    const ly = H - 330 + i * 2;
    lamps += `<rect x="${lx - 2}" y="${ly}" width="4" height="100" fill="#0f1224"/>`;
    lamps += `<circle cx="${lx}" cy="${ly}" r="34" fill="#ffb866" opacity="0.25" filter="url(#softer)"/><circle cx="${lx}" cy="${ly}" r="7" fill="#fff0c8" filter="url(#bokeh)"/>`;
  }
  body += lamps;
  // A vignette, as a lens would give.
  body += `<defs><radialGradient id="vig" cx="0.5" cy="0.5" r="0.75"><stop offset="0.6" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/></radialGradient></defs><rect width="${W}" height="${H}" fill="url(#vig)"/>`;
  return body;
}

// --- avatars: abstract portraits in cut-paper style -------------------------------------------

const AVATARS = [
  {
    name: 'mira',
    seed: 101,
    bg: '#f2b5a0',
    bg2: '#e0735a',
    skin: '#f1cdb0',
    hair: '#2c1b18',
    cloth: '#2f5d62',
    hairStyle: 'bob',
    accent: '#f7e3a1',
  },
  {
    name: 'theo',
    seed: 202,
    bg: '#a8c5da',
    bg2: '#4c7ea6',
    skin: '#c98e68',
    hair: '#3b2619',
    cloth: '#e8a33d',
    hairStyle: 'short',
    accent: '#fdf0d5',
  },
  {
    name: 'sana',
    seed: 303,
    bg: '#d7c6ec',
    bg2: '#8e6cbf',
    skin: '#8d5a3b',
    hair: '#151014',
    cloth: '#e76f51',
    hairStyle: 'bun',
    accent: '#ffd166',
  },
  {
    name: 'jules',
    seed: 404,
    bg: '#bfe0c5',
    bg2: '#4f9a6a',
    skin: '#f3d3bd',
    hair: '#c0652a',
    cloth: '#274060',
    hairStyle: 'curls',
    accent: '#f4a259',
  },
  {
    name: 'kai',
    seed: 505,
    bg: '#f6d9a0',
    bg2: '#d99a3c',
    skin: '#b07650',
    hair: '#1b1b2f',
    cloth: '#7a3b69',
    hairStyle: 'long',
    accent: '#8ecae6',
  }, // The seven artists added to the sample community (issue 19).
  {
    name: 'ines',
    seed: 606,
    bg: '#c9e4de',
    bg2: '#5a9e8f',
    skin: '#e8b896',
    hair: '#4a2c1d',
    cloth: '#c44536',
    hairStyle: 'long',
    accent: '#fcd581',
  },
  {
    name: 'omar',
    seed: 707,
    bg: '#f7d6bf',
    bg2: '#d4845a',
    skin: '#9c6644',
    hair: '#1a1a1a',
    cloth: '#1d3557',
    hairStyle: 'short',
    accent: '#a8dadc',
  },
  {
    name: 'lena',
    seed: 808,
    bg: '#e2d4f0',
    bg2: '#7b5ea7',
    skin: '#f6dcc8',
    hair: '#e0b84c',
    cloth: '#2a9d8f',
    hairStyle: 'bob',
    accent: '#ffb4a2',
  },
  {
    name: 'ravi',
    seed: 909,
    bg: '#fde2a7',
    bg2: '#e09f3e',
    skin: '#a0674b',
    hair: '#211a1e',
    cloth: '#540b0e',
    hairStyle: 'curls',
    accent: '#9ee493',
  },
  {
    name: 'yuki',
    seed: 1010,
    bg: '#cde7f0',
    bg2: '#3d7ea6',
    skin: '#f2d0b5',
    hair: '#2b1f2a',
    cloth: '#f28482',
    hairStyle: 'bun',
    accent: '#f6f4d2',
  },
  {
    name: 'bea',
    seed: 1111,
    bg: '#f9c6c9',
    bg2: '#d1495b',
    skin: '#7d4e36',
    hair: '#120d0b',
    cloth: '#edae49',
    hairStyle: 'curls',
    accent: '#66a182',
  },
  {
    name: 'noah',
    seed: 1212,
    bg: '#d8e2dc',
    bg2: '#6b9080',
    skin: '#ecc8ae',
    hair: '#8a5a2b',
    cloth: '#3c415c',
    hairStyle: 'short',
    accent: '#f4acb7',
  },
];

function avatar(a) {
  const rng = makeRng(a.seed);
  const S = 512;
  const cx = 256 + rng.range(-8, 8);
  const headY = 225;
  const hr = 92;
  let body = `<defs>${paintFilters(a.seed, 6)}
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a.bg}"/><stop offset="1" stop-color="${a.bg2}"/></linearGradient>
  </defs><rect width="${S}" height="${S}" fill="url(#bg)"/>`;
  // Backdrop shapes: a sun disc and leaves or arcs, each avatar its own.
  body += `<circle cx="${f(cx + rng.range(40, 110))}" cy="${f(rng.range(120, 190))}" r="${f(rng.range(110, 150))}" fill="${a.accent}" opacity="0.85" filter="url(#rough)"/>`;
  for (let i = 0; i < 4; i++) {
    const lx = rng.pick([rng.range(20, 140), rng.range(380, 500)]);
    const ly = rng.range(60, 420);
    const ang = rng.range(0, 360);
    body += `<ellipse cx="${f(lx)}" cy="${f(ly)}" rx="${f(rng.range(40, 70))}" ry="${f(rng.range(14, 22))}" transform="rotate(${f(ang)} ${f(lx)} ${f(ly)})" fill="${mix(a.bg2, '#1f3b2d', 0.35)}" opacity="0.55" filter="url(#rough)"/>`;
  }
  let brush = '';
  for (let i = 0; i < 60; i++) {
    brush += brushStroke(
      rng,
      rng.range(0, S),
      rng.range(0, S),
      rng.range(30, 90),
      rng.range(-0.8, 0.8),
      rng.range(5, 14),
      rng.pick([a.bg, a.bg2, '#ffffff']),
      rng.range(0.05, 0.16),
    );
  }
  body += `<g filter="url(#rough)">${brush}</g>`;
  // Hair behind the head.
  const hairBack = {
    bob: `<path d="M${cx - 118},${headY + 60} C${cx - 130},${headY - 130} ${cx + 130},${headY - 130} ${cx + 118},${headY + 60} L${cx + 100},${headY + 95} L${cx - 100},${headY + 95} Z" fill="${a.hair}"/>`,
    short: '',
    bun: `<circle cx="${cx + 10}" cy="${headY - 110}" r="48" fill="${a.hair}"/>`,
    curls:
      Array.from({ length: 16 }, (_, i) => {
        const ang = Math.PI + (i / 15) * Math.PI * 1.1 - 0.05;
        return `<circle cx="${f(cx + Math.cos(ang) * 100)}" cy="${f(headY - 10 + Math.sin(ang) * 100)}" r="${f(36 + rng.range(-6, 6))}" fill="${a.hair}"/>`;
      }).join('') +
      `<circle cx="${cx - 104}" cy="${headY + 40}" r="34" fill="${a.hair}"/><circle cx="${cx + 104}" cy="${headY + 40}" r="34" fill="${a.hair}"/>`,
    long: `<path d="M${cx - 108},${headY - 10} C${cx - 140},${headY + 120} ${cx - 150},${headY + 220} ${cx - 120},${headY + 250} L${cx + 120},${headY + 250} C${cx + 150},${headY + 220} ${cx + 140},${headY + 120} ${cx + 108},${headY - 10} C${cx + 100},${headY - 130} ${cx - 100},${headY - 130} ${cx - 108},${headY - 10} Z" fill="${a.hair}"/>`,
  }[a.hairStyle];
  // Shoulders and neck.
  const shoulders = `<path d="M${cx - 200},${S + 10} C${cx - 190},${S - 120} ${cx - 120},${S - 150} ${cx},${S - 150} C${cx + 120},${S - 150} ${cx + 190},${S - 120} ${cx + 200},${S + 10} Z" fill="${a.cloth}"/>`;
  const neck = `<path d="M${cx - 34},${headY + 60} L${cx - 38},${S - 140} C${cx - 20},${S - 110} ${cx + 20},${S - 110} ${cx + 38},${S - 140} L${cx + 34},${headY + 60} Z" fill="${mix(a.skin, '#000000', 0.12)}"/>`;
  const collar = `<path d="M${cx - 60},${S - 146} C${cx - 30},${S - 95} ${cx + 30},${S - 95} ${cx + 60},${S - 146}" stroke="${mix(a.cloth, '#ffffff', 0.35)}" stroke-width="8" fill="none" stroke-linecap="round"/>`;
  const head = `<ellipse cx="${cx}" cy="${headY}" rx="${hr * 0.86}" ry="${hr * 1.05}" fill="${a.skin}"/>`;
  const cheek = `<ellipse cx="${cx - 44}" cy="${headY + 30}" rx="18" ry="11" fill="#e0785e" opacity="0.35"/><ellipse cx="${cx + 44}" cy="${headY + 30}" rx="18" ry="11" fill="#e0785e" opacity="0.35"/>`;
  const line = mix(a.skin, '#2a1a14', 0.75);
  const eyesClosed = rng.next() < 0.5 || a.name === 'mira';
  const eyes = eyesClosed
    ? `<path d="M${cx - 48},${headY + 2} q16,12 32,0" stroke="${line}" stroke-width="4.5" fill="none" stroke-linecap="round"/><path d="M${cx + 16},${headY + 2} q16,12 32,0" stroke="${line}" stroke-width="4.5" fill="none" stroke-linecap="round"/>`
    : `<ellipse cx="${cx - 32}" cy="${headY + 2}" rx="7" ry="9" fill="${line}"/><ellipse cx="${cx + 32}" cy="${headY + 2}" rx="7" ry="9" fill="${line}"/>`;
  const brows = `<path d="M${cx - 50},${headY - 22} q18,-9 36,-2" stroke="${a.hair}" stroke-width="5" fill="none" stroke-linecap="round"/><path d="M${cx + 14},${headY - 24} q18,-7 36,2" stroke="${a.hair}" stroke-width="5" fill="none" stroke-linecap="round"/>`;
  const nose = `<path d="M${cx + 2},${headY + 4} C${cx - 8},${headY + 30} ${cx - 12},${headY + 40} ${cx + 6},${headY + 42}" stroke="${line}" stroke-width="3.5" fill="none" stroke-linecap="round" opacity="0.8"/>`;
  const lips = `<path d="M${cx - 20},${headY + 62} q20,${rng.range(8, 14)} 40,0 q-20,-8 -40,0 Z" fill="#b5483f" opacity="0.9"/>`;
  const hairFront = {
    bob: `<path d="M${cx - 100},${headY - 10} C${cx - 100},${headY - 120} ${cx + 110},${headY - 125} ${cx + 100},${headY - 10} C${cx + 40},${headY - 70} ${cx - 30},${headY - 60} ${cx - 100},${headY - 10} Z" fill="${a.hair}"/>`,
    short: `<path d="M${cx - 84},${headY - 20} C${cx - 96},${headY - 120} ${cx + 96},${headY - 125} ${cx + 84},${headY - 20} C${cx + 60},${headY - 70} ${cx - 40},${headY - 80} ${cx - 84},${headY - 20} Z" fill="${a.hair}"/>`,
    bun: `<path d="M${cx - 82},${headY - 18} C${cx - 84},${headY - 112} ${cx + 84},${headY - 112} ${cx + 82},${headY - 18} C${cx + 30},${headY - 78} ${cx - 30},${headY - 78} ${cx - 82},${headY - 18} Z" fill="${a.hair}"/>`,
    curls: Array.from(
      { length: 7 },
      (_, i) =>
        `<circle cx="${f(cx - 66 + i * 22)}" cy="${f(headY - 78 + Math.abs(i - 3) * 6)}" r="${f(24 + rng.range(-3, 3))}" fill="${a.hair}"/>`,
    ).join(''),
    long: `<path d="M${cx - 84},${headY - 10} C${cx - 80},${headY - 110} ${cx + 90},${headY - 115} ${cx + 84},${headY - 10} C${cx + 50},${headY - 60} ${cx},${headY - 80} ${cx - 20},${headY - 96} C${cx - 40},${headY - 60} ${cx - 60},${headY - 40} ${cx - 84},${headY - 10} Z" fill="${a.hair}"/>`,
  }[a.hairStyle];
  const earring =
    a.name === 'sana' || a.name === 'kai'
      ? `<circle cx="${cx - 78}" cy="${headY + 40}" r="8" fill="${a.accent}"/><circle cx="${cx + 78}" cy="${headY + 40}" r="8" fill="${a.accent}"/>`
      : '';
  body += `<g filter="url(#rough)">${hairBack}${shoulders}${neck}${collar}${head}${cheek}${hairFront}${earring}</g>`;
  body += `<g>${brows}${eyes}${nose}${lips}</g>`;
  // Pattern on the clothes.
  let pattern = '';
  for (let i = 0; i < 18; i++) {
    pattern += `<circle cx="${f(cx + rng.range(-180, 180))}" cy="${f(rng.range(S - 130, S))}" r="${f(rng.range(4, 9))}" fill="${mix(a.cloth, '#ffffff', 0.45)}" opacity="0.7"/>`;
  }
  body += `<g clip-path="url(#cloth)">${pattern}</g><clipPath id="cloth"><path d="M${cx - 200},${S + 10} C${cx - 190},${S - 120} ${cx - 120},${S - 150} ${cx},${S - 150} C${cx + 120},${S - 150} ${cx + 190},${S - 120} ${cx + 200},${S + 10} Z"/></clipPath>`;
  return body;
}

// --- defaults ---------------------------------------------------------------------------------

function defaultPost(seed) {
  const rng = makeRng(seed);
  const W = 1600;
  const H = 1200;
  let body = `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f2efeb"/><stop offset="1" stop-color="#e3ddd5"/></linearGradient></defs>
  <rect width="${W}" height="${H}" fill="url(#g)"/>`;
  // Gentle parallel waves, like raked sand.
  for (let i = 0; i < 34; i++) {
    const y0 = -80 + i * 42;
    const pts = [];
    for (let k = 0; k <= 16; k++) {
      const x = (k / 16) * (W + 200) - 100;
      pts.push([x, y0 + Math.sin(k * 0.7 + i * 0.18) * 26 + Math.sin(k * 0.23) * 40]);
    }
    body += `<path d="${openSmooth(pts)}" stroke="${i % 3 === 0 ? '#d6cbbd' : '#e8e1d8'}" stroke-width="${i % 3 === 0 ? 5 : 3}" fill="none"/>`;
  }
  body += `<circle cx="1120" cy="470" r="190" fill="#e9ded1" opacity="0.75"/><circle cx="1120" cy="470" r="190" fill="none" stroke="#d6cbbd" stroke-width="4"/>`;
  void rng;
  return body;
}

function defaultAvatar() {
  const S = 256;
  return `<defs>
    <radialGradient id="d" cx="0.35" cy="0.3" r="0.8"><stop offset="0" stop-color="#f4f1ed"/><stop offset="1" stop-color="#c9c1b7"/></radialGradient>
  </defs>
  <circle cx="128" cy="128" r="128" fill="url(#d)"/>
  <circle cx="128" cy="128" r="88" fill="none" stroke="#b3a99d" stroke-width="3" opacity="0.6"/>
  <circle cx="128" cy="128" r="52" fill="none" stroke="#b3a99d" stroke-width="3" opacity="0.45"/>
  <circle cx="128" cy="128" r="18" fill="#d6806a" opacity="0.8"/>
  <rect width="${S}" height="${S}" fill="none"/>`;
}

// --- main -------------------------------------------------------------------------------------

async function main() {
  await mkdir(join(assetsDir, 'seed'), { recursive: true });
  await mkdir(join(assetsDir, 'defaults'), { recursive: true });
  const jobs = [
    ['post-1.jpg', 1600, 1200, landscapePainting(11), { seed: 11, grain: 14 }],
    ['post-2.jpg', 1200, 1600, botanicalStillLife(22), { seed: 22, grain: 14 }],
    ['post-3.jpg', 1600, 1600, geometricPrint(33), { seed: 33, grain: 12 }],
    ['post-4.jpg', 1920, 1080, duskPhoto(44), { seed: 44, grain: 9, grainBlur: 0 }],
    ['default-post.jpg', 1600, 1200, defaultPost(55), { seed: 55, grain: 5 }],
    ...AVATARS.map((a) => [`${a.name}.jpg`, 512, 512, avatar(a), { seed: a.seed, grain: 10 }]),
  ];
  for (const [name, w, h, body, opts] of jobs) {
    const file = await render(name, w, h, body, opts);
    console.log(`wrote ${file}`);
  }
  // The default avatar keeps its transparent corners, so it is a PNG and is written without grain.
  const avatarFile = join(assetsDir, 'defaults', 'default-avatar.png');
  await sharp(Buffer.from(svg(256, 256, defaultAvatar())))
    .toColourspace('srgb')
    .png({ compressionLevel: 9 })
    .toFile(avatarFile);
  console.log(`wrote ${avatarFile}`);
}

await main();
