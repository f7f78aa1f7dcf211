// The media module's public face: uploads, their processed files, and how other modules show a picture.
export { wireMedia, type MediaModule } from './media.module.js';
export { createMediaService, MEDIA_NOT_FOUND, type MediaService } from './media.service.js';
// The message of a 503 that says the pictures' queue is full (the imports wait their turn on it, issue 40).
export { MEDIA_BUSY } from './media.queue.js';
export { avatarUrl, jpegFor, toPicture } from './media.presenter.js';
export {
  mediaFileOfUrl,
  mediaUrl,
  originalFileName,
  variantFileName,
  type MediaStorage,
  type StorageHealth,
} from './media.storage.js';
export { createMediaStorage, type MediaStoreConfig } from './media.store.js';
export { STORAGE_UNREACHABLE } from './media.storage.s3.js';
export { ENCODING, inspectImage, processImage } from './media.processing.js';
export type { MediaRow, NewMediaRow } from './media.sql.js';
