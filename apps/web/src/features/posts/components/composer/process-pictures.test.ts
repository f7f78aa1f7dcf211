import { i18n } from '@lingui/core';
import { LIMITS, type Picture } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { createPictureDraft, picturesChanged, postWait } from './picture-draft';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

/** A work's process pictures (issue 41) are a picture draft of their own, with its own most and its own words. */

const file = (name: string) => new File([name], name, { type: 'image/png' });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const picture = (id: string, alt = ''): Picture =>
  ({
    _id: id,
    url: `/media/${id}.jpg`,
    alt,
    originalName: `${id}.png`,
    width: 4,
    height: 3,
    sources: [],
  }) as unknown as Picture;

function processDraft(saved: Picture[] = []) {
  return createPictureDraft(saved, {
    max: LIMITS.processPicturesMax,
    inspect: (chosen) =>
      Promise.resolve(
        chosen.name.startsWith('bad') ? { problem: 'Not a picture.' } : { size: { width: 4, height: 3 } },
      ),
    // Never answers: these pictures stay uploading.
    upload: () => new Promise<Picture>(() => {}),
    createPreview: (chosen) => `blob:${chosen.name}`,
    revokePreview: () => {},
  });
}

describe('the process pictures’ draft', () => {
  it(`holds up to ${LIMITS.processPicturesMax}, leaving the rest out`, () => {
    const draft = processDraft([picture('a'), picture('b')]);
    const files = Array.from({ length: 10 }, (_, i) => file(`stage-${i}.png`));
    const result = draft.add(files);
    expect(result.added).toBe(LIMITS.processPicturesMax - 2);
    expect(result.leftOut.map((left) => left.name)).toEqual(['stage-8.png', 'stage-9.png']);
    expect(draft.get()).toHaveLength(LIMITS.processPicturesMax);
    // A full list takes no more.
    expect(draft.add([file('more.png')]).added).toBe(0);
  });

  it('says why Post waits in the process pictures’ own words', async () => {
    const draft = processDraft();
    draft.activate();
    draft.add([file('sketch.png'), file('bad.txt')]);
    await settle();
    const [, bad] = draft.get();
    expect(postWait(draft.get(), 'process')).toEqual({
      kind: 'invalid',
      key: bad!.key,
      message: 'Process picture 2 cannot be used: remove it to post.',
    });
    draft.remove(bad!.key);
    expect(postWait(draft.get(), 'process')?.message).toBe('Uploading process pictures: 0 of 1 ready.');
    // The pictures keep their own words.
    expect(postWait(draft.get())?.message).toBe('Uploading pictures: 0 of 1 ready.');
  });

  it('counts as changed when one is added, removed, moved or its alt text changed', () => {
    const saved = [picture('a', 'Sketch'), picture('b', 'Lines')];
    const draft = processDraft(saved);
    expect(picturesChanged(draft.get(), saved)).toBe(false);
    draft.move(draft.get()[1]!.key, 0);
    expect(picturesChanged(draft.get(), saved)).toBe(true);
    draft.move(draft.get()[1]!.key, 0);
    draft.setAlt(draft.get()[0]!.key, 'Pencil sketch');
    expect(picturesChanged(draft.get(), saved)).toBe(true);
  });
});
