// The unstyled build: its CSS ships in our stylesheet instead of an injected <style> tag,
// which a strict Content-Security-Policy would block. Import `toast` only from here so the
// calls and the container share one module.
export { toast } from 'react-toastify/unstyled';
