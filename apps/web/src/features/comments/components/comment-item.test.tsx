import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { Comment } from '@share-arts/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CommentItem } from './comment-item';

const render = (comment: Comment, rights: { canEdit?: boolean; canDelete?: boolean } = {}) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <CommentItem
            comment={comment}
            canEdit={rights.canEdit ?? false}
            canDelete={rights.canDelete ?? false}
            now={Date.parse('2026-12-07T12:00:00Z')}
            voteHintId="hint"
            onEdited={() => {}}
            onDeleted={() => {}}
          />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const local: Comment = {
  _id: 'c1',
  postId: 'p1',
  userId: 'u1',
  username: 'mira',
  userPhoto: '/media/mira.jpg',
  content: 'Lovely light',
  createdAt: '2026-12-07T11:00:00.000Z',
  updatedAt: '2026-12-07T11:00:00.000Z',
  edited: false,
  votes: { upvoteCount: 0, downvoteCount: 0, upvotedBy: [], downvotedBy: [] },
  viewerVote: null,
};

const remote: Comment = {
  ...local,
  _id: 'c2',
  userId: 'r1',
  username: 'bob@mastodon.example',
  firstName: 'Bob Remote',
  userPhoto: '/media/defaults/default-avatar.png',
  remote: { handle: 'bob@mastodon.example', url: 'https://mastodon.example/@bob' },
  content: 'From afar https://example.com/a',
};

describe('CommentItem', () => {
  it("links a local author's avatar and @username to their profile", () => {
    const html = render(local);
    expect(html).toContain('href="/mira"');
    expect(html).toContain('@mira');
    expect(html).not.toContain('target="_blank"');
  });

  it('names a remote author by their @handle, linking out to their profile on their server, never into this site', () => {
    const html = render(remote);
    expect(html).toContain('href="https://mastodon.example/@bob"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener nofollow ugc"');
    // The handle may break before its server's @ in a narrow column, never inside a word.
    expect(html).toContain('@bob<wbr/>@mastodon.example');
    expect(html).toContain('title="Bob Remote"');
    expect(html).toContain('opens in a new tab');
    expect(html).toContain('src="/media/defaults/default-avatar.png"');
    // No profile here: no link to /bob@mastodon.example (the words' own link is the only other one).
    expect(html).not.toContain('href="/');
    expect(html).toContain('href="https://example.com/a"');
  });

  it('links nowhere when the remote server named no http(s) page', () => {
    const html = render({
      ...remote,
      content: 'Hi',
      remote: { handle: 'bob@mastodon.example', url: 'javascript:alert(1)' },
    });
    expect(html).not.toContain('href=');
    expect(html).toContain('@bob<wbr/>@mastodon.example');
  });
});
