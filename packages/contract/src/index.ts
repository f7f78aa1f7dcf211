export * from './constants.js';
export * from './messages.js';
export * from './dates.js';
export * from './schemas/common.js';
export * from './schemas/user.js';
