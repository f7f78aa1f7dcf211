// The mails the app sent during the end-to-end run, as the SMTP sink wrote them (smtp-sink.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import type { SunkMail } from './smtp-sink.ts';

function mailsTo(address: string): SunkMail[] {
  const folder = process.env.E2E_MAIL_DIR ?? '';
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as SunkMail)
    .filter((mail) => mail.to.includes(address));
}

/** The path and query of the link in the newest mail to `address` whose subject starts with `subject`. */
export async function linkInMail(address: string, subject: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        const mail = mailsTo(address)
          .reverse()
          .find((m) => m.subject.startsWith(subject));
        link = /https?:\/\/\S+?(\/[a-z-]+\?token=[A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
        return link;
      },
      { message: `a mail "${subject}…" to ${address}` },
    )
    .not.toBe('');
  return link;
}

/** How many mails to `address` with a subject starting with `subject` arrived so far. */
export const mailCount = (address: string, subject: string) =>
  mailsTo(address).filter((m) => m.subject.startsWith(subject)).length;
