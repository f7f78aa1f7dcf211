import type { Inquiry } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { budgetText, otherPerson } from './words';

const person = (username: string) => ({ _id: username, username, firstName: '', lastName: '', userPhoto: '' });

describe('an inquiry in words', () => {
  it('writes a budget with its currency, and none when there is none', () => {
    expect(budgetText(null)).toBeNull();
    expect(budgetText({ amount: 250, currency: 'EUR' })).toMatch(/250/);
    expect(budgetText({ amount: 250, currency: 'EUR' })).toMatch(/€|EUR/);
  });

  it('names the other person of the two', () => {
    const inquiry = { artist: person('ana'), client: person('theo'), viewer: { role: 'artist', otherLeft: false } };
    expect(otherPerson(inquiry as Inquiry).username).toBe('theo');
    expect(otherPerson({ ...inquiry, viewer: { role: 'client', otherLeft: false } } as Inquiry).username).toBe('ana');
  });
});
