import { describe, expect, it } from 'vitest';
import { tokenizeRichText, type RichTextToken } from './rich-text-tokens';

const links = (text: string) => tokenizeRichText(text).filter((token) => token.kind !== 'text');

describe('tokenizeRichText', () => {
  it('gives the text back whole, links included', () => {
    const text = 'New #Ink study for @mira, see https://example.com/a#b. #水彩 and @nova.art.';
    expect(
      tokenizeRichText(text)
        .map((token) => token.text)
        .join(''),
    ).toBe(text);
  });

  it('links tags in any script, in lower case, as the server extracts them', () => {
    expect(links('#Ink #水彩 #été_2026 #ÉTÉ')).toEqual<RichTextToken[]>([
      { kind: 'tag', text: '#Ink', tag: 'ink' },
      { kind: 'tag', text: '#水彩', tag: '水彩' },
      { kind: 'tag', text: '#été_2026', tag: 'été_2026' },
      { kind: 'tag', text: '#ÉTÉ', tag: 'été' },
    ]);
  });

  it('finds no tag inside a word, an entity, a web address or after a lone #', () => {
    expect(links('a#b x_#y &#39; # alone ##')).toEqual([]);
    expect(links('see https://example.com/page#section')).toEqual([
      { kind: 'url', text: 'https://example.com/page#section', href: 'https://example.com/page#section' },
    ]);
  });

  it('links mentions but not email addresses, and leaves trailing dots out', () => {
    expect(links('thanks @mira. cc @nova.art, mail me at jo@example.com')).toEqual([
      { kind: 'mention', text: '@mira', username: 'mira' },
      { kind: 'mention', text: '@nova.art', username: 'nova.art' },
    ]);
    expect(links('@ab @_x @' + 'a'.repeat(31))).toEqual([]);
  });

  it('takes no handle on another server for the account of the same name here', () => {
    expect(links('by @bob@pixelfed.example and @ann.b@mastodon.example, with @mira')).toEqual([
      { kind: 'mention', text: '@mira', username: 'mira' },
    ]);
    expect(links('@mira.@x.example')).toEqual([]);
  });

  it('keeps a web address whole but not the sentence around it', () => {
    expect(links('(see https://en.wikipedia.org/wiki/Sunflowers_(painting)).')).toEqual([
      {
        kind: 'url',
        text: 'https://en.wikipedia.org/wiki/Sunflowers_(painting)',
        href: 'https://en.wikipedia.org/wiki/Sunflowers_(painting)',
      },
    ]);
    expect(links('javascript:alert(1) ftp://example.com <b>bold</b>')).toEqual([]);
  });
});
