import { i18n } from '@lingui/core';
import { LOOKUP } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { lookupLabel, remoteQuery } from './remote-query';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('what typed in search is looked up on another server', () => {
  it('takes a handle with or without its leading @, the server in lower case', () => {
    const expected = {
      kind: 'handle',
      q: '@bob@pixelfed.example',
      handle: 'bob@pixelfed.example',
      host: 'pixelfed.example',
    };
    expect(remoteQuery('@bob@pixelfed.example')).toEqual(expected);
    expect(remoteQuery('  bob@Pixelfed.Example ')).toEqual(expected);
    expect(remoteQuery('@Bob_Art.2@social.example.org')).toMatchObject({ handle: 'Bob_Art.2@social.example.org' });
  });

  it('takes a server with a port, and one whose name is not in ASCII (the server makes it punycode)', () => {
    expect(remoteQuery('@mira@127.0.0.1:4173')).toMatchObject({ host: '127.0.0.1:4173' });
    expect(remoteQuery('@anna@bücher.example')).toMatchObject({ host: 'bücher.example' });
  });

  it('takes a pasted http(s) address of a profile or a post', () => {
    expect(remoteQuery('https://mastodon.example/@bob/113456789')).toEqual({
      kind: 'url',
      q: 'https://mastodon.example/@bob/113456789',
      url: 'https://mastodon.example/@bob/113456789',
      host: 'mastodon.example',
    });
    expect(remoteQuery('HTTP://Pixelfed.Example:8443/p/bob/42')).toMatchObject({ host: 'pixelfed.example:8443' });
  });

  it('leaves words, names, tags and plain usernames to the search here', () => {
    for (const text of ['', '   ', 'mira', '@mira', '#landscape', 'dusk over the sea', 'me@home', 'a b@c.d']) {
      expect(remoteQuery(text), text).toBeNull();
    }
  });

  it('refuses what is not a handle nor an address of someone or something', () => {
    for (const text of [
      'bob@',
      '@@pixelfed.example',
      'bob@pixelfed..example',
      'bob@-pixelfed.example',
      'bob@pixel fed.example',
      'bob@alice@pixelfed.example',
      'bob@pixelfed.example/path',
      'javascript:alert(1)',
      'ftp://pixelfed.example/p/1',
      'https://pixelfed.example',
      'https://pixelfed.example/',
      'https://user:secret@pixelfed.example/p/1',
      'https://',
    ]) {
      expect(remoteQuery(text), text).toBeNull();
    }
  });

  it('refuses an address longer than the server takes', () => {
    const long = `https://pixelfed.example/p/${'a'.repeat(LOOKUP.queryMaxLength)}`;
    expect(remoteQuery(long)).toBeNull();
  });

  it('offers it in one sentence naming the server', () => {
    expect(lookupLabel(remoteQuery('bob@pixelfed.example')!)).toBe('Look up @bob@pixelfed.example on pixelfed.example');
    expect(lookupLabel(remoteQuery('https://mastodon.example/@bob/1')!)).toBe(
      'Look up this address on mastodon.example',
    );
  });
});
