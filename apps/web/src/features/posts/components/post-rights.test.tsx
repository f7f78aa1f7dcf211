import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { Post } from '@share-arts/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PostLicence } from './post-rights';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const render = (post: Post) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <PostLicence post={post} />
      </QueryClientProvider>
    </I18nProvider>,
  );

const picture = {
  _id: 'm1',
  url: '/media/m1.jpg',
  width: 800,
  height: 600,
  alt: 'Harbour',
  originalUrl: '/media/m1-original.jpg',
  originalName: 'harbour.jpg',
};

const shared = {
  _id: 'p1',
  username: 'theo',
  name: 'Theo',
  picture,
  media: [picture],
  licence: 'cc-by',
  aiGenerated: false,
  downloadable: true,
} as unknown as Post;

describe('PostLicence', () => {
  it('offers the original of a work here that its artist lets be downloaded', () => {
    expect(render(shared)).toContain('Download original');
  });

  it('offers no original of a work from another server: what is here is a copy', () => {
    const html = render({ ...shared, origin: { host: 'pixelfed.example', url: 'https://pixelfed.example/p/1' } });
    expect(html).not.toContain('Download');
    expect(html).toContain('CC BY 4.0');
  });
});
