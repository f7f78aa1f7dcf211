export * from './constants.js';
export * from './messages.js';
export * from './dates.js';
export * from './schemas/common.js';
export * from './schemas/user.js';
export * from './schemas/media.js';
export * from './schemas/post.js';
export * from './schemas/search.js';
