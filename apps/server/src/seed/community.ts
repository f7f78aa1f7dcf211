import { makeRng, type ArtKind } from './art.js';
import { SAMPLE_FOLLOWS, SAMPLE_POSTS, SAMPLE_USERS, type SampleUsername } from './sample-data.js';

/**
 * The sample community: the spec's five users and four posts ("seeded with 5 sample users and 4 sample
 * posts") extended to twelve artists and 80 posts of generated art with likes, comments, comment votes
 * and follows over the past six weeks, so a first visit does not find an empty app. Everything comes
 * from one fixed seed: two databases seeded apart hold the same community.
 */

export interface PlannedPost {
  author: SampleUsername;
  content: string;
  alt: string;
  minutesAgo: number;
  /** A committed picture under assets/seed, or art drawn from a seed: the post's first picture. */
  picture: { file: string } | { kind: ArtKind; seed: number };
  /** The rest of a series, in order (most posts have none): more art of the same kind. */
  more: { picture: { kind: ArtKind; seed: number }; alt: string }[];
}

export interface PlannedComment {
  post: number;
  author: SampleUsername;
  content: string;
  minutesAgo: number;
  votes: { voter: SampleUsername; kind: 'up' | 'down' }[];
}

export interface Community {
  posts: PlannedPost[];
  /** [post index, user]: likes. */
  likes: [number, SampleUsername][];
  comments: PlannedComment[];
  follows: [SampleUsername, SampleUsername][];
}

const STYLES: Record<SampleUsername, ArtKind[]> = {
  mira: ['landscape', 'colour-field'],
  theo: ['organic', 'comic'],
  sana: ['geometric', 'organic'],
  jules: ['landscape', 'pixel-scene'],
  kai: ['geometric', 'colour-field'],
  ines: ['landscape', 'organic'],
  omar: ['comic', 'comic', 'pixel-sprite'],
  lena: ['colour-field', 'geometric'],
  ravi: ['pixel-sprite', 'pixel-scene'],
  yuki: ['organic', 'colour-field'],
  bea: ['geometric', 'pixel-sprite'],
  noah: ['landscape', 'comic'],
};

const CAPTIONS: Record<ArtKind, string[]> = {
  landscape: [
    'Last light over the ridges, layer by layer. #landscape #painting',
    'Morning haze study. Kept the hills simple this time. #landscape #study',
    'The lake was calmer than I am. #landscape #digitalpainting',
    'Sunset from the train window, painted from memory. #landscape #sketchbook',
    'Three mountains and a very patient sun. #landscape #colour',
  ],
  'colour-field': [
    'Two blocks of colour arguing quietly. #abstract #colourfield',
    'How soft can an edge be before it disappears? #abstract #painting',
    'Colour field no. 7: warm over cool. #colourfield #minimal',
    'Sat with these two colours for a week. #abstract #wip',
  ],
  organic: [
    'Cut-paper shapes and a few stems. #collage #botanical',
    'Shapes that almost touch. #abstract #organic',
    'Pressed flowers, but make it abstract. #botanical #illustration',
    'Played with overlaps until the colours started talking. #collage #colour',
  ],
  geometric: [
    'New tile print: quarter circles all the way down. #geometric #printmaking',
    'Rules first, then chance picks the colours. #generative #geometric',
    'Bauhaus homework, twenty years late. #geometric #design',
    'A grid, four shapes, five colours. #pattern #generative',
  ],
  comic: [
    'A tiny comic about waiting for the weather to change. #comic #webcomic',
    'Four panels, one small feeling. #comic #illustration',
    'He finally says something in panel four. #comic #characterdesign',
    'Strip of the week: the view does not care. #webcomic #comic',
  ],
  'pixel-sprite': [
    'New little creature for the game jam, 16x16. #pixelart #gamedev',
    'Sprite of the day. Mirror symmetry does half the work. #pixelart #sprite',
    'Limited palette challenge: five colours. #pixelart #8bit',
  ],
  'pixel-scene': [
    'Tiny pixel sunset, 64x48. #pixelart #landscape',
    'Hills at dusk, one pixel at a time. #pixelart #retro',
    'Background for a level I will probably never finish. #pixelart #gamedev',
  ],
};

const ALTS: Record<ArtKind, string> = {
  landscape: 'A painted landscape: layered mountain ridges under a glowing sun, with a calm lake or sky above.',
  'colour-field': 'An abstract painting of soft-edged rectangles of colour stacked on a dark ground.',
  organic: 'An abstract collage of overlapping rounded shapes with thin stems and leaves.',
  geometric: 'A geometric print of square tiles with quarter circles, dots and triangles in bold colours.',
  comic: 'A tall four-panel comic: a small round character under changing skies, talking in speech bubbles.',
  'pixel-sprite': 'Pixel art: a symmetric little creature on a checked background, drawn on a 16 by 16 grid.',
  'pixel-scene': 'Pixel art: a tiny landscape of hills at sunset, with a round pixel sun.',
};

const COMMENTS = [
  'The colours here are so good.',
  'This made my morning!',
  'Love the composition, the eye goes straight to the light.',
  'How long did this take you?',
  'Saving this one for inspiration.',
  'The texture is beautiful.',
  'Those edges! So soft.',
  'I would hang this on my wall.',
  'What palette did you use?',
  'This series keeps getting better.',
  'Panel three got me 😄',
  'So much mood in so few shapes.',
  'Really nice balance between warm and cool.',
  'Can you share a process video?',
  'The little details reward a second look.',
  'Bold choice with that red, and it works.',
  'This feels like a calm Sunday.',
  'Reminds me of old travel posters.',
  'Pixel perfect, literally.',
  'Need a print of this!',
];
const THANKS = ['Thank you so much!', 'Thanks, that means a lot 🙏', 'Glad you like it!', 'Thank you! More soon.'];

/**
 * Every artist's second post is a series of 2 to 5 pictures, so a first visit finds carousels (mira's
 * feed among them: hers, theo's and sana's). Its other pictures are drawn from seeds of their own, not
 * from the random sequence, which keeps the rest of the community as it was. The long series are pixel
 * art, the cheapest to prepare (every sample picture goes through the upload pipeline at build time).
 */
const SERIES_LENGTHS: Record<SampleUsername, number> = {
  mira: 3,
  theo: 3,
  sana: 2,
  jules: 4,
  kai: 2,
  ines: 3,
  omar: 2,
  lena: 2,
  ravi: 5,
  yuki: 2,
  bea: 4,
  noah: 2,
};
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];

function series(kind: ArtKind, index: number, length: number): PlannedPost['more'] {
  return Array.from({ length: length - 1 }, (_, k) => ({
    picture: { kind, seed: 5000 + index * 10 + k },
    alt: `${ALTS[kind]} The ${ORDINALS[k + 1]} of a series of ${length}.`,
  }));
}

const HOUR = 60;
const DAY = 24 * HOUR;

/** The whole community, planned from one seed. */
export function planCommunity(seed = 19): Community {
  const rng = makeRng(seed);
  const names = SAMPLE_USERS.map((user) => user.username) as SampleUsername[];
  const posts: PlannedPost[] = SAMPLE_POSTS.map((post) => ({ ...post, picture: { file: post.picture }, more: [] }));
  const perUser = [6, 6, 6, 6, 6, 7, 7, 6, 7, 6, 6, 7];
  const used = new Set<string>();
  names.forEach((author, u) => {
    for (let i = 0; i < perUser[u]!; i++) {
      const kind = STYLES[author][i % STYLES[author].length]!;
      let content = rng.pick(CAPTIONS[kind]);
      // Two posts of one person never read the same.
      for (let n = 2; used.has(`${author}:${content}`); n++) content = `${content.replace(/ \(\d+\)$/, '')} (${n})`;
      used.add(`${author}:${content}`);
      posts.push({
        author,
        content,
        alt: ALTS[kind],
        minutesAgo: Math.round(2 * HOUR + rng.next() ** 1.3 * 42 * DAY),
        picture: { kind, seed: 1000 + posts.length },
        more: i === 1 ? series(kind, posts.length, SERIES_LENGTHS[author]) : [],
      });
    }
  });

  const likes: [number, SampleUsername][] = [];
  const comments: PlannedComment[] = [];
  const others = (name: SampleUsername) => names.filter((n) => n !== name);
  const shuffled = <T>(list: T[]) =>
    list
      .map((v) => [rng.next(), v] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, v]) => v);
  // One post is everybody's favourite, with one like more than any other: the top of Trending.
  const favourite = posts.findIndex((post) => 'kind' in post.picture && post.picture.kind === 'comic');
  posts.forEach((post, index) => {
    const count = index === favourite ? names.length - 1 : Math.floor(rng.next() ** 1.8 * (names.length - 2));
    for (const liker of shuffled(others(post.author)).slice(0, count)) likes.push([index, liker]);
    if (rng.next() < 0.5 || index === favourite) {
      const commenters = shuffled(others(post.author)).slice(0, rng.int(1, 4));
      let minutesAgo = post.minutesAgo;
      for (const author of commenters) {
        minutesAgo = Math.max(1, Math.round(minutesAgo - rng.range(5, Math.min(2 * DAY, minutesAgo / 3))));
        const votes = shuffled(others(author))
          .slice(0, Math.floor(rng.next() ** 2 * 6))
          .map((voter) => ({ voter, kind: rng.next() < 0.88 ? ('up' as const) : ('down' as const) }));
        comments.push({ post: index, author, content: rng.pick(COMMENTS), minutesAgo, votes });
      }
      if (rng.next() < 0.4) {
        minutesAgo = Math.max(1, Math.round(minutesAgo - rng.range(1, Math.min(DAY, minutesAgo / 2))));
        comments.push({ post: index, author: post.author, content: rng.pick(THANKS), minutesAgo, votes: [] });
      }
    }
  });

  const follows = new Set(SAMPLE_FOLLOWS.map(([a, b]) => `${a}>${b}`));
  for (const follower of names) {
    // mira, the test account, keeps the two follows it always had (theo and sana).
    if (follower === 'mira') continue;
    for (const followee of shuffled(others(follower)).slice(0, rng.int(2, 6))) follows.add(`${follower}>${followee}`);
  }
  return {
    posts,
    likes,
    comments,
    follows: [...follows].map((pair) => pair.split('>') as [SampleUsername, SampleUsername]),
  };
}
