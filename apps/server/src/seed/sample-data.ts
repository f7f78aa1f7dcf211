import { TEST_CREDENTIALS } from '@share-arts/contract';

/**
 * The sample moderator (issue 23): not an artist (no posts, no photo), named with its password in the
 * README beside the test account; it reviews the moderation queue.
 */
export const SAMPLE_MODERATOR = {
  username: 'moderator',
  password: 'share-arts-moderator',
  firstName: 'Mo',
  lastName: 'Derator',
  email: 'moderator@example.com',
  bio: 'Keeps Share Arts kind. Report anything that breaks the rules.',
} as const;

/** The sample users: the spec's five first; `mira` is the test account of the login page. */
export const SAMPLE_USERS = [
  {
    username: TEST_CREDENTIALS.username,
    firstName: 'Mira',
    lastName: 'Okafor',
    email: 'mira@example.com',
    bio: 'Painter of quiet landscapes. Oil, gouache and too much coffee.',
    link: 'https://example.com/mira',
    photo: 'mira.jpg',
  },
  {
    username: 'theo',
    firstName: 'Theo',
    lastName: 'Lindqvist',
    email: 'theo@example.com',
    bio: 'Illustrator. Tall figures, long shadows.',
    link: '',
    photo: 'theo.jpg',
  },
  {
    username: 'sana',
    firstName: 'Sana',
    lastName: 'Iqbal',
    email: 'sana@example.com',
    bio: 'Ceramics and pattern studies from Lahore.',
    link: 'https://example.com/sana',
    photo: 'sana.jpg',
  },
  {
    username: 'jules',
    firstName: 'Jules',
    lastName: 'Moreau',
    email: 'jules@example.com',
    bio: 'Photographer chasing blue hour.',
    link: '',
    photo: 'jules.jpg',
  },
  {
    username: 'kai',
    firstName: 'Kai',
    lastName: 'Nakamura',
    email: 'kai@example.com',
    bio: 'Printmaker. Woodcut, risograph, repeat.',
    link: '',
    photo: 'kai.jpg',
  },
  // The spec's five, then seven more artists, so a first visit finds a community (issue 19).
  {
    username: 'ines',
    firstName: 'Inês',
    lastName: 'Carvalho',
    email: 'ines@example.com',
    bio: 'Watercolour skies and coastlines. Lisbon light, every day.',
    link: 'https://example.com/ines',
    photo: 'ines.jpg',
  },
  {
    username: 'omar',
    firstName: 'Omar',
    lastName: 'Haddad',
    email: 'omar@example.com',
    bio: 'Comics about small creatures with big feelings.',
    link: '',
    photo: 'omar.jpg',
  },
  {
    username: 'lena',
    firstName: 'Lena',
    lastName: 'Vogel',
    email: 'lena@example.com',
    bio: 'Colour fields, slowly. Acrylic and patience.',
    link: 'https://example.com/lena',
    photo: 'lena.jpg',
  },
  {
    username: 'ravi',
    firstName: 'Ravi',
    lastName: 'Menon',
    email: 'ravi@example.com',
    bio: 'Pixel artist. 16 colours are plenty.',
    link: '',
    photo: 'ravi.jpg',
  },
  {
    username: 'yuki',
    firstName: 'Yuki',
    lastName: 'Tanaka',
    email: 'yuki@example.com',
    bio: 'Paper cuts, plants and shapes that almost touch.',
    link: '',
    photo: 'yuki.jpg',
  },
  {
    username: 'bea',
    firstName: 'Beatriz',
    lastName: 'Santos',
    email: 'bea@example.com',
    bio: 'Generative prints: rules, chance and a lot of tiles.',
    link: 'https://example.com/bea',
    photo: 'bea.jpg',
  },
  {
    username: 'noah',
    firstName: 'Noah',
    lastName: 'Fischer',
    email: 'noah@example.com',
    bio: 'Weekend landscape painter, weekday software person.',
    link: '',
    photo: 'noah.jpg',
  },
] as const;

export type SampleUsername = (typeof SAMPLE_USERS)[number]['username'];

/** The four sample posts, oldest first; `minutesAgo` spreads them over the last days. */
export const SAMPLE_POSTS: {
  author: SampleUsername;
  content: string;
  picture: string;
  alt: string;
  minutesAgo: number;
}[] = [
  {
    author: 'mira',
    content: 'Evening on the lake, oil on linen. Trying to keep the violets calm this time. #painting #landscape',
    picture: 'post-1.jpg',
    alt: 'A painted lake at sunset: a low orange sun over violet mountains, reeds in the foreground.',
    minutesAgo: 60 * 52,
  },
  {
    author: 'theo',
    content: 'Wildflowers in the teal jug, gouache. The arch came out warmer than planned. #illustration #stilllife',
    picture: 'post-2.jpg',
    alt: 'A vase of flowers in front of a pale arch, painted in soft pinks and greens.',
    minutesAgo: 60 * 30,
  },
  {
    author: 'kai',
    content: 'New geometric print, four colours, one very patient evening. #printmaking',
    picture: 'post-3.jpg',
    alt: 'A geometric print of tiles: quarter circles and squares in red, blue, ochre and cream.',
    minutesAgo: 60 * 9,
  },
  {
    author: 'jules',
    content: 'Dusk over the harbour, ten minutes after the lights came on. #photography #bluehour',
    picture: 'post-4.jpg',
    alt: 'A city skyline at dusk over calm water, with a pier and the first lights on.',
    minutesAgo: 45,
  },
];

/** Who follows whom among the sample users. */
export const SAMPLE_FOLLOWS: [SampleUsername, SampleUsername][] = [
  ['mira', 'theo'],
  ['mira', 'sana'],
  ['theo', 'mira'],
  ['sana', 'mira'],
  ['jules', 'mira'],
  ['kai', 'jules'],
];
