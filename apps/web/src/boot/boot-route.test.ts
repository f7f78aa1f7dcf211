import { describe, expect, it } from 'vitest';
import { bootRoute } from './boot-route';

describe('bootRoute', () => {
  it('knows a series page by its third segment (issue 41)', () => {
    expect(bootRoute('/ana/series/moth-diaries')).toEqual({ route: 'series' });
  });

  it('leaves a profile, a post and deeper addresses as they were', () => {
    expect(bootRoute('/ana')).toEqual({ route: 'profile' });
    expect(bootRoute('/ana/series')).toEqual({ route: 'other' });
    expect(bootRoute('/ana/series/moth-diaries/extra')).toEqual({ route: 'other' });
    expect(bootRoute('/posts/p1')).toEqual({ route: 'post', postId: 'p1' });
  });
});
