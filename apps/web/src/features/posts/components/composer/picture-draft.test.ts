import { i18n } from '@lingui/core';
import { LIMITS, type Picture } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import {
  createPictureDraft,
  mediaIdsOf,
  moveItem,
  picturesChanged,
  postWait,
  thumbnailOf,
  type PictureDraftDeps,
  type UploadCallbacks,
} from './picture-draft';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const picture = (id: string, alt = ''): Picture =>
  ({
    _id: id,
    url: `/media/${id}-1080.jpg`,
    alt,
    originalName: `${id}.png`,
    width: 800,
    height: 600,
    sources: [
      { type: 'image/avif', srcset: `/media/${id}-320.avif 320w` },
      { type: 'image/jpeg', srcset: `/media/${id}-320.jpg 320w, /media/${id}-640.jpg 640w` },
    ],
  }) as unknown as Picture;

const file = (name: string) => new File([name], name, { type: 'image/png' });

/** A flush of the promise callbacks queued so far. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

interface PendingUpload {
  name: string;
  alt: string;
  callbacks: UploadCallbacks;
  resolve: (picture: Picture) => void;
  reject: (error: unknown) => void;
}

function setup(overrides: Partial<PictureDraftDeps> = {}, saved: Picture[] = []) {
  const uploads: PendingUpload[] = [];
  const timers: (() => void)[] = [];
  const revoked: string[] = [];
  const draft = createPictureDraft(saved, {
    inspect: (chosen) =>
      Promise.resolve(
        chosen.name.startsWith('bad') ? { problem: 'Not a picture.' } : { size: { width: 4, height: 3 } },
      ),
    upload: (chosen, alt, callbacks) =>
      new Promise<Picture>((resolve, reject) => {
        uploads.push({ name: chosen.name, alt, callbacks, resolve, reject });
        callbacks.signal.addEventListener('abort', () => reject(new DOMException('cancelled', 'AbortError')));
      }),
    createPreview: (chosen) => `blob:${chosen.name}`,
    revokePreview: (url) => revoked.push(url),
    setTimer: (run) => timers.push(run),
    clearTimer: () => undefined,
    ...overrides,
  });
  const statuses = () => draft.get().map((item) => `${item.name}:${item.status}`);
  return { draft, uploads, timers, revoked, statuses };
}

describe('the pictures of a post being written', () => {
  it('keep the order they were chosen in, whatever order their uploads finish in', async () => {
    const { draft, uploads, statuses } = setup();
    draft.add([file('a.png'), file('b.png'), file('c.png')]);
    expect(statuses()).toEqual(['a.png:checking', 'b.png:checking', 'c.png:checking']);
    await settle();
    // Two at a time, in the list's order.
    expect(uploads.map((upload) => upload.name)).toEqual(['a.png', 'b.png']);
    expect(statuses()).toEqual(['a.png:uploading', 'b.png:uploading', 'c.png:queued']);

    uploads[1]!.callbacks.onProgress(0.5);
    expect(draft.get()[1]!.progress).toBe(0.5);
    uploads[1]!.callbacks.onSent();
    expect(statuses()[1]).toBe('b.png:processing');
    uploads[1]!.resolve(picture('B'));
    await settle();
    expect(statuses()).toEqual(['a.png:uploading', 'b.png:ready', 'c.png:uploading']);
    uploads[2]!.resolve(picture('C'));
    uploads[0]!.resolve(picture('A'));
    await settle();
    expect(mediaIdsOf(draft.get())).toEqual(['A', 'B', 'C']);
    expect(postWait(draft.get())).toBeUndefined();
  });

  it('refuse a file the browser finds unusable without uploading it, and make Post wait until it is removed', async () => {
    const { draft, uploads } = setup();
    draft.add([file('ok.png'), file('bad.txt')]);
    await settle();
    expect(uploads.map((upload) => upload.name)).toEqual(['ok.png']);
    const bad = draft.get()[1]!;
    expect(bad).toMatchObject({ status: 'invalid', problem: 'Not a picture.' });
    uploads[0]!.resolve(picture('OK'));
    await settle();
    expect(postWait(draft.get())).toEqual({
      kind: 'invalid',
      key: bad.key,
      message: 'Picture 2 cannot be used: remove it to post.',
    });
    draft.remove(bad.key);
    expect(postWait(draft.get())).toBeUndefined();
  });

  it('say how many are ready while uploads go on', async () => {
    const { draft, uploads } = setup();
    draft.add([file('a.png'), file('b.png')]);
    expect(postWait(draft.get())).toMatchObject({ kind: 'pending', message: 'Uploading pictures: 0 of 2 ready.' });
    await settle();
    uploads[0]!.resolve(picture('A'));
    await settle();
    expect(postWait(draft.get())?.message).toBe('Uploading pictures: 1 of 2 ready.');
  });

  it('show a failed upload with its reason, and upload it again on retry', async () => {
    const { draft, uploads, statuses } = setup();
    draft.add([file('a.png')]);
    await settle();
    uploads[0]!.reject(Object.assign(new Error('That file is damaged.'), { status: 400 }));
    await settle();
    const [item] = draft.get();
    expect(item).toMatchObject({ status: 'failed', problem: 'That file is damaged.' });
    expect(postWait(draft.get())?.message).toBe('Picture 1 did not upload: retry or remove it.');
    draft.retry(item!.key);
    await settle();
    expect(uploads).toHaveLength(2);
    expect(statuses()).toEqual(['a.png:uploading']);
  });

  it('wait and go again, by themselves, when the server is busy', async () => {
    const { draft, uploads, timers, statuses } = setup();
    draft.add([file('a.png')]);
    await settle();
    uploads[0]!.reject(Object.assign(new Error('Busy.'), { status: 429, retryAfter: 2 }));
    await settle();
    expect(statuses()).toEqual(['a.png:queued']);
    expect(uploads).toHaveLength(1);
    timers.shift()!();
    expect(uploads).toHaveLength(2);
    expect(statuses()).toEqual(['a.png:uploading']);
  });

  it('cancel the upload of a removed picture, free its preview and start the next', async () => {
    const { draft, uploads, revoked, statuses } = setup();
    draft.add([file('a.png'), file('b.png'), file('c.png')]);
    await settle();
    draft.remove(draft.get()[0]!.key);
    await settle();
    expect(revoked).toEqual(['blob:a.png']);
    expect(statuses()).toEqual(['b.png:uploading', 'c.png:uploading']);
    expect(uploads.map((upload) => upload.name)).toEqual(['a.png', 'b.png', 'c.png']);
  });

  it('send the alt text typed before the upload starts', async () => {
    const { draft, uploads } = setup();
    draft.add([file('a.png'), file('b.png'), file('c.png')]);
    draft.setAlt(draft.get()[2]!.key, '  A blue bowl ');
    await settle();
    uploads[0]!.resolve(picture('A'));
    await settle();
    expect(uploads[2]).toMatchObject({ name: 'c.png', alt: 'A blue bowl' });
  });

  it('take at most LIMITS.postPicturesMax, leaving the rest out', () => {
    const { draft } = setup({}, [picture('saved')]);
    const files = Array.from({ length: LIMITS.postPicturesMax + 2 }, (_, index) => file(`p${index}.png`));
    const { added, leftOut } = draft.add(files);
    expect(added).toBe(LIMITS.postPicturesMax - 1);
    expect(leftOut.map((left) => left.name)).toEqual(files.slice(-3).map((left) => left.name));
    expect(draft.get()).toHaveLength(LIMITS.postPicturesMax);
  });

  it('start an edit with the post saved pictures, unchanged until moved, removed or re-described', () => {
    const saved = [picture('one', 'First'), picture('two')];
    const { draft } = setup({}, saved);
    expect(draft.get().map((item) => [item.status, item.alt, item.previewUrl])).toEqual([
      ['ready', 'First', '/media/one-320.jpg'],
      ['ready', '', '/media/two-320.jpg'],
    ]);
    expect(picturesChanged(draft.get(), saved)).toBe(false);
    expect(draft.move(draft.get()[1]!.key, 0)).toBe(true);
    expect(mediaIdsOf(draft.get())).toEqual(['two', 'one']);
    expect(picturesChanged(draft.get(), saved)).toBe(true);
    draft.move(draft.get()[1]!.key, 0);
    expect(picturesChanged(draft.get(), saved)).toBe(false);
    draft.setAlt(draft.get()[1]!.key, 'Second');
    expect(picturesChanged(draft.get(), saved)).toBe(true);
  });

  it('cancel every upload when the composer closes', async () => {
    const { draft, uploads } = setup();
    draft.add([file('a.png'), file('b.png')]);
    await settle();
    draft.dispose();
    expect(uploads.every((upload) => upload.callbacks.signal.aborted)).toBe(true);
  });
});

describe('helpers', () => {
  it('moveItem moves one item, clamped to the list', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, -5)).toEqual(['c', 'a', 'b']);
  });

  it("thumbnailOf takes the smallest plain JPEG, or the picture's url", () => {
    expect(thumbnailOf(picture('x'))).toBe('/media/x-320.jpg');
    expect(thumbnailOf({ ...picture('y'), sources: [] })).toBe('/media/y-1080.jpg');
  });
});
