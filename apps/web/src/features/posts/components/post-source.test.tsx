import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { Post } from '@share-arts/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PostSource } from './post-source';

const render = (post: Pick<Post, 'origin' | 'importedFrom'>, variant: 'feed' | 'page' = 'feed') =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <PostSource post={post} variant={variant}>
        <time>3h</time>
      </PostSource>
    </I18nProvider>,
  );

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('where a work comes from, beside its time', () => {
  it('a work from another server: "from" its server, leading out to its page there', () => {
    const origin = { host: 'pixelfed.example', url: 'https://pixelfed.example/p/bob/42' };
    for (const variant of ['feed', 'page'] as const) {
      const html = render({ origin }, variant);
      expect(html).toContain('<time>3h</time>');
      expect(html).toMatch(
        /<a[^>]*href="https:\/\/pixelfed.example\/p\/bob\/42"[^>]*target="_blank"[^>]*rel="noopener nofollow"[^>]*>from pixelfed.example/,
      );
    }
  });

  it('names the server without a link when its address is not http(s)', () => {
    const html = render({ origin: { host: 'pixelfed.example', url: 'javascript:alert(1)' } });
    expect(html).toContain('from pixelfed.example');
    expect(html).not.toContain('href');
  });

  it('an imported work says where from on its own page only', () => {
    expect(render({ importedFrom: 'Instagram' }, 'page')).toContain('Imported from Instagram');
    expect(render({ importedFrom: 'Instagram' }, 'feed')).toBe('<time>3h</time>');
  });

  it('any other work shows its time alone', () => {
    expect(render({}, 'page')).toBe('<time>3h</time>');
  });
});
