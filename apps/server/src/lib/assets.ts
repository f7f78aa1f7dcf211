import { fileURLToPath } from 'node:url';

/** Files shipped with the server: default pictures and the sample data's art. */
export const ASSETS_DIR = fileURLToPath(new URL('../../assets', import.meta.url));

export const DEFAULT_AVATAR_URL = '/media/defaults/default-avatar.png';
export const DEFAULT_POST_PIC_URL = '/media/defaults/default-post.jpg';
