import { describe, expect, it } from 'vitest';
import { caretTrigger, replaceTrigger } from './caret-trigger';

const at = (text: string) => caretTrigger(text.replace('|', ''), text.indexOf('|'));

describe('caretTrigger', () => {
  it('finds the tag or mention typed up to the caret', () => {
    expect(at('New #wat|')).toEqual({ kind: 'tag', query: 'wat', start: 4, end: 8 });
    expect(at('#|')).toEqual({ kind: 'tag', query: '', start: 0, end: 1 });
    expect(at('hi @mi|ra!')).toEqual({ kind: 'mention', query: 'mi', start: 3, end: 8 });
    expect(at('#水|彩')).toEqual({ kind: 'tag', query: '水', start: 0, end: 3 });
    expect(at('@nova.a|')).toEqual({ kind: 'mention', query: 'nova.a', start: 0, end: 7 });
  });

  it('finds nothing inside a word, an email address or past a space', () => {
    expect(at('a#b|')).toBeNull();
    expect(at('jo@exam|')).toBeNull();
    expect(at('#ink |')).toBeNull();
    expect(at('plain|')).toBeNull();
    expect(at('#ink.|')).toBeNull();
    expect(at('@mirä|')).toBeNull();
  });
});

describe('replaceTrigger', () => {
  it('puts the chosen word and a space in place of what was typed, the caret after it', () => {
    const text = 'New #wat study';
    const trigger = caretTrigger(text, 8)!;
    expect(replaceTrigger(text, trigger, 'watercolor')).toEqual({ text: 'New #watercolor study', caret: 16 });
    expect(replaceTrigger('@mi', caretTrigger('@mi', 3)!, 'mira')).toEqual({ text: '@mira ', caret: 6 });
  });
});
