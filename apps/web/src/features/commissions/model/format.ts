import { COMMISSION_KIND_LABELS, type CommissionKind, type CommissionPrice } from '@share-arts/contract';

/** "€40–€250", in the reader's locale; whole units of the currency. */
export function formatPrice(price: CommissionPrice, locale?: string): string {
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: price.currency,
    maximumFractionDigits: 0,
    minimumFractionDigits: 0,
  });
  return price.min === price.max ? format.format(price.min) : `${format.format(price.min)}–${format.format(price.max)}`;
}

/** "About 3 weeks", "About 10 days", "About 1 day". */
export function formatTurnaround(days: number): string {
  if (days >= 14 && days % 7 === 0) return `About ${days / 7} weeks`;
  return `About ${days} ${days === 1 ? 'day' : 'days'}`;
}

/** A BCP 47 tag's name in the reader's language ("pt-BR" → "Brazilian Portuguese"), else the tag itself. */
export function languageName(tag: string, locale?: string): string {
  try {
    return new Intl.DisplayNames(locale ? [locale] : undefined, { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

export const kindLabel = (kind: CommissionKind): string => COMMISSION_KIND_LABELS[kind];
