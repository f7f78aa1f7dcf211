import {
  ACCOUNT_ALIASES_MAX,
  AccountAliasesBody,
  type AccountAliasesResponse,
  type RemotePerson,
} from '@share-arts/contract';
import { MutationObserver, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { renderToStaticMarkup as renderBare } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { accountAliasesKey, saveAliasesOptions, type AliasesChange } from '../api/use-account-aliases';
import {
  ACCOUNT_MAX_LENGTH,
  AccountAliases,
  AccountAliasesView,
  ALIAS_PROBLEMS,
  ALIASES_MAX,
  withAdded,
  withoutAlias,
  type AccountAliasesViewProps,
} from './account-aliases';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });
const renderToStaticMarkup = (node: ReactNode) => renderBare(<I18nProvider i18n={i18n}>{node}</I18nProvider>);

const bob: RemotePerson = { handle: 'bob@mastodon.example', url: 'https://mastodon.example/@bob' };
const pix: RemotePerson = { handle: 'bob@pixelfed.example', url: 'https://pixelfed.example/bob' };
/** An account whose server gave no handle: the server shows its host and its actor's address. */
const bare: RemotePerson = { handle: 'old.example', url: 'https://old.example/users/bob' };
const long: RemotePerson = {
  handle: `${'a'.repeat(40)}@${'b'.repeat(19)}`,
  url: `https://${'b'.repeat(19)}/@${'a'.repeat(40)}`,
};

/** The fetch the API client calls, answering `status` and `body` and keeping each request. */
function stubFetch(status: number, body: unknown) {
  const fetch = vi.fn(
    async (_path: string, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

beforeEach(() => {
  vi.unstubAllGlobals();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The card as Settings shows it, its list already read. */
function renderCard(aliases: RemotePerson[]) {
  const client = new QueryClient();
  client.setQueryData(accountAliasesKey, aliases);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <AccountAliases username="ada" />
    </QueryClientProvider>,
  );
}

const viewProps: AccountAliasesViewProps = {
  inputId: 'alias-input',
  ownHandle: 'ada@share.example',
  aliases: [bob],
  onRetry: () => undefined,
  draft: '',
  onDraft: () => undefined,
  onAdd: () => undefined,
  onRemove: () => undefined,
  announcement: '',
};

/** Sends a change as the card does, through the API client and a stubbed fetch, into `client`'s cache. */
function runSave(client: QueryClient, change: AliasesChange) {
  return new MutationObserver(client, saveAliasesOptions(client)).mutate(change);
}

describe('Settings: moving here from another server (issue 40)', () => {
  it("keeps the contract's limits (copied, to keep its schema module off the feed's chunks)", () => {
    expect(ALIASES_MAX).toBe(ACCOUNT_ALIASES_MAX);
    // TypeBox keeps the option on the schema object; its type does not name it.
    const item = AccountAliasesBody.properties.accounts.items as unknown as { maxLength?: number };
    expect(ACCOUNT_MAX_LENGTH).toBe(item.maxLength);
  });

  it('lists the accounts named, each linking out to its server, with Remove', () => {
    const html = renderCard([bob, bare]);
    expect(html).toContain('Moving here from another server');
    expect(html).toContain('aria-label="Your accounts on other servers"');
    // The handle whole, free to break before its server's @.
    expect(html).toContain('@bob<wbr/>@mastodon.example');
    expect(html).toContain('href="https://mastodon.example/@bob"');
    expect(html).toContain('target="_blank" rel="noopener nofollow"');
    expect(html).toContain('aria-label="Remove @bob@mastodon.example"');
    // Without a handle, the account's address stands for it.
    expect(html).toContain('>https://old.example/users/bob</a>');
    expect(html).toContain('aria-label="Remove https://old.example/users/bob"');
    // Nothing is named at 2 of 5: the box is open.
    expect(/<input[^>]*>/.exec(html)?.[0]).not.toContain('disabled');
    expect(html).not.toContain(ALIAS_PROBLEMS.full);
  });

  it("says which handle to give on the old server: the artist's own, here", () => {
    const html = renderToStaticMarkup(<AccountAliasesView {...viewProps} />);
    expect(html).toContain('“Move to a different account”');
    expect(html).toContain('@ada<wbr/>@share.example');
  });

  it('says there is none yet, and never links a profile that is not http(s)', () => {
    expect(renderCard([])).toContain('No account named yet.');
    const html = renderCard([{ handle: 'eve@evil.example', url: 'javascript:alert(1)' }]);
    expect(html).not.toContain('javascript:');
    expect(html).toContain('@eve<wbr/>@evil.example');
  });

  it('lets a 60-character handle break rather than widen the page', () => {
    const html = renderCard([long]);
    expect(html).toContain(`@${'a'.repeat(40)}<wbr/>@${'b'.repeat(19)}`);
  });

  it('closes the box at five accounts, saying why', () => {
    const five = [bob, pix, bare, long, { handle: 'e@e.example', url: 'https://e.example/@e' }];
    const html = renderCard(five);
    expect(html).toContain(ALIAS_PROBLEMS.full);
    expect(html).toMatch(/<input[^>]*disabled=""[^>]*>/);
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Add<\/button>/);
    // The reason describes the closed box.
    const describedBy = /<input[^>]*aria-describedby="([^"]*)"/.exec(html)?.[1] ?? '';
    const reasonId = new RegExp(`<p id="([^"]*)"[^>]*>${ALIAS_PROBLEMS.full}`).exec(html)?.[1];
    expect(reasonId).toBeDefined();
    expect(describedBy.split(' ')).toContain(reasonId);
    expect(withAdded(five, '@new@new.example')).toEqual({ problem: ALIAS_PROBLEMS.full });
  });

  describe('adding', () => {
    it('sends the whole list, the accounts already named first and the new one as typed', async () => {
      expect(withAdded([bob, bare], '  https://pixelfed.example/bob ')).toEqual({
        accounts: ['@bob@mastodon.example', 'https://old.example/users/bob', 'https://pixelfed.example/bob'],
      });
      const client = new QueryClient();
      client.setQueryData(accountAliasesKey, [bob]);
      const fetch = stubFetch(200, { aliases: [bob, pix] } satisfies AccountAliasesResponse);
      await runSave(client, { accounts: ['@bob@mastodon.example', '@bob@pixelfed.example'] });
      expect(fetch).toHaveBeenCalledOnce();
      const [path, init] = fetch.mock.calls[0]!;
      expect(path).toBe('/api/federation/aliases');
      expect(init?.method).toBe('PUT');
      expect(JSON.parse(String(init?.body))).toEqual({ accounts: ['@bob@mastodon.example', '@bob@pixelfed.example'] });
      // The list shown is the server's answer.
      expect(client.getQueryData(accountAliasesKey)).toEqual([bob, pix]);
    });

    it('refuses, before sending, an empty box, a handle too long, or an account already named', () => {
      expect(withAdded([bob], '   ')).toEqual({ problem: ALIAS_PROBLEMS.empty });
      expect(withAdded([bob], `@${'x'.repeat(320)}@a.example`)).toEqual({ problem: ALIAS_PROBLEMS.tooLong });
      const already = { problem: ALIAS_PROBLEMS.already('@bob@mastodon.example') };
      expect(withAdded([bob], '@Bob@Mastodon.example')).toEqual(already);
      expect(withAdded([bob], 'bob@mastodon.example')).toEqual(already);
      expect(withAdded([bob], 'https://mastodon.example/@bob/')).toEqual(already);
    });
  });

  describe('removing', () => {
    it('sends the list without it, and shows what the server keeps', async () => {
      expect(withoutAlias([bob, bare, pix], bare)).toEqual(['@bob@mastodon.example', '@bob@pixelfed.example']);
      expect(withoutAlias([bob], bob)).toEqual([]);
      const client = new QueryClient();
      client.setQueryData(accountAliasesKey, [bob, pix]);
      const fetch = stubFetch(200, { aliases: [pix] } satisfies AccountAliasesResponse);
      await runSave(client, { accounts: ['@bob@pixelfed.example'], removing: bob.url });
      expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toEqual({ accounts: ['@bob@pixelfed.example'] });
      expect(client.getQueryData(accountAliasesKey)).toEqual([pix]);
    });

    it("shows Removing… on that account's button, and holds every change while it is saved", () => {
      const html = renderToStaticMarkup(
        <AccountAliasesView {...viewProps} aliases={[bob, pix]} pending={{ accounts: [], removing: bob.url }} />,
      );
      expect(html).toMatch(/aria-label="Remove @bob@mastodon.example" aria-disabled="true"[^>]*>Removing…</);
      expect(html).toMatch(/aria-label="Remove @bob@pixelfed.example" aria-disabled="true"[^>]*>Remove</);
      expect(html).toMatch(/<button type="submit"[^>]*aria-disabled="true"[^>]*>Add</);
    });
  });

  describe('a refusal', () => {
    it("is the server's sentence, and leaves the list as it was", async () => {
      const sentence = 'mastodon.example could not be reached. Try again later.';
      const client = new QueryClient();
      client.setQueryData(accountAliasesKey, [bob]);
      stubFetch(502, { errors: [sentence] });
      const failure = await runSave(client, { accounts: ['@bob@mastodon.example', '@x@mastodon.example'] }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).message).toBe(sentence);
      expect(client.getQueryData(accountAliasesKey)).toEqual([bob]);
    });

    it('shows in place as an alert, the box keeping what was typed and pointing at it', () => {
      const html = renderToStaticMarkup(
        <AccountAliasesView {...viewProps} draft="@nobody@127.0.0.1:1" problem="127.0.0.1:1 could not be reached." />,
      );
      expect(html).toMatch(/<div role="alert" id="([^"]+)"[^>]*>127.0.0.1:1 could not be reached.<\/div>/);
      const alertId = /<div role="alert" id="([^"]+)"/.exec(html)?.[1] ?? 'none';
      expect(html).toMatch(/<input[^>]*value="@nobody@127.0.0.1:1"/);
      expect(html).toMatch(/<input[^>]*aria-invalid="true"/);
      expect(/<input[^>]*aria-describedby="([^"]*)"/.exec(html)?.[1]?.split(' ')).toContain(alertId);
    });

    it('of the list itself offers to try again', () => {
      const html = renderToStaticMarkup(
        <AccountAliasesView {...viewProps} aliases={undefined} loadError="Could not reach Share Arts." />,
      );
      expect(html).toContain('could not be loaded: Could not reach Share Arts.');
      expect(html).toContain('Try again');
      expect(html).not.toContain('<input');
    });
  });

  it('announces a change politely', () => {
    const html = renderToStaticMarkup(
      <AccountAliasesView {...viewProps} announcement="@bob@mastodon.example is no longer named here." />,
    );
    expect(html).toContain('<div role="status" aria-live="polite" class="');
    expect(html).toMatch(/aria-live="polite"[^>]*>@bob@mastodon.example is no longer named here.<\/div>/);
  });
});
