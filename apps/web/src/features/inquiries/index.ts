// The inquiries feature's public face (issue 42): what the shell's live updates refresh. The pages are lazy routes
// (app/router.tsx); the "Send an inquiry" button is its own lazy face (send.ts).
export { inquiryKeys, invalidateInquiries } from './api/inquiry-keys';
