// The inquiries feature's "Send an inquiry" face (issue 42): the button and its dialog, a lazy chunk of its own
// (import() it), placed on an artist's profile and in their commission panel.
export { default } from './components/send-inquiry-button';
