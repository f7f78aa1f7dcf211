import { currentLocale } from './current-locale';

const formats = new Map<string, Intl.NumberFormat>();

/** 1234567 → "1,234,567" in English, "1.234.567" in Spanish...: Intl's grouping in the app's language (issue 43). */
export function formatCount(count: number): string {
  const locale = currentLocale();
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    formats.set(locale, format);
  }
  return format.format(Math.trunc(count));
}
