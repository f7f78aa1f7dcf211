// A real SMTP server for the end-to-end run (issue 24): the playwright config's main process starts it,
// the app under test sends through it (SMTP_URL), and each received mail is written as JSON to a folder
// the specs read (mails.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

/** What a spec reads of a mail. */
export interface SunkMail {
  to: string[];
  subject: string;
  text: string;
}

/** Listens on 127.0.0.1:`port` (without waiting: the server under test sends its first mail much later). */
export function startSmtpSink(port: number, folder: string): void {
  mkdirSync(folder, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          count += 1;
          const mail: SunkMail = {
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          };
          writeFileSync(path.join(folder, `${String(count).padStart(5, '0')}.json`), JSON.stringify(mail));
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  server.listen(port, '127.0.0.1');
  // The runner's own process: the server goes when the run ends.
  server.server.unref();
}
