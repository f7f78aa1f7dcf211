import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createTestApp, signUp } from '../../test/helpers.js';

describe('mail without SMTP_URL', () => {
  it('prints each mail, its text and its link, to the server log instead of sending it', async () => {
    const lines: string[] = [];
    const ctx = await createTestApp({
      config: { logLevel: 'info', logStream: { write: (line) => lines.push(line) } },
    });
    const email = `log${randomBytes(4).toString('hex')}@example.test`;
    try {
      const who = await signUp(ctx.app, { email });
      await ctx.app.inject({ method: 'POST', url: '/api/auth/forgot', payload: { login: who.user.username } });
    } finally {
      // Closing waits for the mails asked for so far.
      await ctx.close();
    }
    const mails = lines.map((line) => JSON.parse(line)).filter((entry) => entry.mail);
    expect(mails).toHaveLength(1); // the confirmation; an unconfirmed address gets no reset link
    expect(mails[0].mail).toEqual({ to: email, subject: 'Confirm your email address for Share Arts' });
    expect(mails[0].msg).toMatch(/^mail \(no SMTP_URL, so not sent\):\nHello /);
    expect(mails[0].msg).toMatch(/http:\/\/localhost:\d+\/verify-email\?token=[A-Za-z0-9_-]{43}/);
  });
});
