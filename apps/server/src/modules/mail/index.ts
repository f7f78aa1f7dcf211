// The mail module's public face (issue 24): the one way mail leaves the server, and the mails it sends.
export { createMailer, type Mail, type Mailer } from './mailer.js';
export { resetMail, verificationMail } from './messages.js';
