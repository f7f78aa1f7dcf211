import { describe, expect, it } from 'vitest';
import { extractHashtags } from './hashtags.js';
import { extractMentions } from './mentions.js';

describe('tags and mentions inside web addresses', () => {
  it('finds no tag in an address, as the web app links it', () => {
    expect(extractHashtags('see https://example.com/#top and #sky')).toEqual(['sky']);
    expect(extractHashtags('https://example.com/a?b=1#c #Ink')).toEqual(['ink']);
    expect(extractHashtags('#first http://x.org/#second')).toEqual(['first']);
  });

  it('finds no mention in an address, and still finds the ones beside it', () => {
    expect(extractMentions('https://example.com/?by=@mira hi @theo')).toEqual(['theo']);
    expect(extractMentions('@mira: https://example.com/@mira')).toEqual(['mira']);
  });

  it('takes a handle on another server for nobody here, as the web app does', () => {
    expect(extractMentions('thanks @bob@pixelfed.example and @mira')).toEqual(['mira']);
    expect(extractMentions('@theo.@mastodon.social @sana.')).toEqual(['sana']);
  });
});
