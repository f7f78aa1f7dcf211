import { describe, expect, it } from 'vitest';
import { bootRoute } from './boot-route';

describe('bootRoute', () => {
  it('knows a series page by its third segment (issue 41)', () => {
    expect(bootRoute('/ana/series/moth-diaries')).toEqual({ route: 'series' });
  });

  it('knows a collection page by its third segment (issue 41)', () => {
    expect(bootRoute('/sana/collections/figure-references')).toEqual({ route: 'collection' });
    expect(bootRoute('/sana/collections')).toEqual({ route: 'other' });
  });

  it('knows the inquiries’ inbox and a thread (issue 42)', () => {
    expect(bootRoute('/inquiries')).toEqual({ route: 'inquiries' });
    expect(bootRoute('/inquiries/5f1c')).toEqual({ route: 'inquiry' });
    expect(bootRoute('/inquiries/5f1c/extra')).toEqual({ route: 'other' });
  });

  it('leaves a profile, a post and deeper addresses as they were', () => {
    expect(bootRoute('/ana')).toEqual({ route: 'profile' });
    expect(bootRoute('/ana/series')).toEqual({ route: 'other' });
    expect(bootRoute('/ana/series/moth-diaries/extra')).toEqual({ route: 'other' });
    expect(bootRoute('/posts/p1')).toEqual({ route: 'post', postId: 'p1' });
  });
});
