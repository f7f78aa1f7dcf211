// The mail module's public face (issue 24): the one way mail leaves the server, and the mails it sends.
export { MAIL_JOB, wireMail, type MailModule } from './mail.module.js';
export { createMailer, type Mail, type Mailer } from './mailer.js';
export { emailChangedMail, inquiryMail, resetMail, securityNoticeMail, verificationMail } from './messages.js';
