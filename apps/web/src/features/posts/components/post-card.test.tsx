import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { Post } from '@share-arts/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PostCard } from './post-card';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const render = (post: Post, variant: 'feed' | 'page' = 'feed') =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <PostCard post={post} variant={variant} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );

const local = {
  _id: 'p1',
  content: 'Dusk over the harbour, with @mira and @bob@pixelfed.example',
  userId: 'u1',
  username: 'theo',
  name: 'Theo',
  userPhoto: '/media/theo.jpg',
  postPic: '/media/defaults/post.png',
  picture: null,
  media: [],
  createdAt: '2026-12-07T10:00:00.000Z',
  updatedAt: '2026-12-07T10:00:00.000Z',
  time: '10:00 AM',
  likes: { likeCount: 0, dislikeCount: 0, likedBy: [], dislikedBy: [] },
  comments: [],
  commentCount: 0,
  moderation: null,
  contentWarning: null,
  commentPolicy: 'everyone',
  licence: 'all-rights-reserved',
  aiGenerated: false,
  downloadable: false,
  viewer: { liked: false, disliked: false, bookmarked: false, followsAuthor: false, isAuthor: false },
} as unknown as Post;

const remote: Post = {
  ...local,
  _id: 'p2',
  userId: 'r1',
  username: 'bob@pixelfed.example',
  name: 'Bob',
  origin: { host: 'pixelfed.example', url: 'https://pixelfed.example/p/bob/42' },
};

describe('PostCard of a work from another server', () => {
  it('names its author by their whole handle, leading to their profile here', () => {
    const html = render(remote);
    expect(html).toContain('href="/bob@pixelfed.example"');
    expect(html).toContain('<bdi dir="ltr">@bob<wbr/>@pixelfed.example</bdi></a>');
  });

  it('says which server it is from, leading out to its page there', () => {
    for (const variant of ['feed', 'page'] as const) {
      expect(render(remote, variant)).toMatch(
        /href="https:\/\/pixelfed.example\/p\/bob\/42"[^>]*target="_blank"[^>]*>from pixelfed.example/,
      );
    }
  });

  it('links a mention of someone here, and no handle on another server to anyone here', () => {
    const html = render(remote);
    expect(html).toContain('href="/mira"');
    expect(html).not.toContain('href="/bob"');
  });

  it('leaves a work from here as it was', () => {
    const html = render(local);
    expect(html).toContain('href="/theo"');
    expect(html).toContain('>theo</a>');
    expect(html).not.toContain('from ');
    expect(html).not.toContain('target="_blank"');
  });
});

describe('PostCard of an edited work (issue 41)', () => {
  it('says "edited" beside its time, a button that opens the history', () => {
    for (const variant of ['feed', 'page'] as const) {
      const html = render({ ...local, editedAt: '2026-12-07T11:00:00+00:00' }, variant);
      expect(html).toMatch(
        /<button type="button"[^>]*title="Edited [^"]+"[^>]*aria-label="edited: see what changed"[^>]*>.*edited/,
      );
    }
  });

  it('says nothing of the kind when never edited', () => {
    expect(render(local)).not.toContain('edited');
  });
});

describe('PostCard of a work whose artist said its language (issue 43)', () => {
  it('marks its text with that language, for screen readers, in a list and on its page', () => {
    for (const variant of ['feed', 'page'] as const) {
      expect(render({ ...local, content: '夕暮れの港', language: 'ja' }, variant)).toMatch(
        /<p class="[^"]*" dir="auto" lang="ja">夕暮れの港<\/p>/,
      );
    }
  });

  it('marks nothing when the language was not said', () => {
    expect(render({ ...local, language: null })).not.toMatch(/dir="auto" lang=/);
  });
});
