import { describe, expect, it } from 'vitest';
import { port } from './port.js';

describe('port', () => {
  it('calls the function a later module connected, with its arguments and answer', async () => {
    const secondFactor = port<(userId: string) => Promise<string | undefined>>('secondFactor');
    const { call } = secondFactor;
    secondFactor.connect(async (userId) => `ticket of ${userId}`);
    await expect(call('u1')).resolves.toBe('ticket of u1');
  });

  it('throws when called before any module connected it, rather than skipping the call', () => {
    const emailSent = port<(userId: string) => void>('emailSent');
    expect(() => emailSent.call('u1')).toThrow('The emailSent port was called before a module connected it.');
  });

  it('takes one answer only', () => {
    const makeAdmin = port<(userId: string) => Promise<void>>('makeAdmin');
    makeAdmin.connect(async () => {});
    expect(() => makeAdmin.connect(async () => {})).toThrow('The makeAdmin port is connected already');
  });
});
