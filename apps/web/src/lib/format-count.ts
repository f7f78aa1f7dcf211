/** 1234567 → "1,234,567", as `toLocaleString('en-US')` writes it, without its first-call cost (see format-date.ts). */
export function formatCount(count: number): string {
  const sign = count < 0 ? '-' : '';
  return sign + String(Math.trunc(Math.abs(count))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
