import { plural } from '@lingui/core/macro';
import { type CommissionKind, type CommissionPrice } from '@share-arts/contract';
import { commissionKindLabel } from './kind-labels';

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
  const weeks = days / 7;
  if (days >= 14 && days % 7 === 0) return plural(weeks, { one: 'About # week', other: 'About # weeks' });
  return plural(days, { one: 'About # day', other: 'About # days' });
}

/** A BCP 47 tag's name in the reader's language ("pt-BR" → "Brazilian Portuguese"), else the tag itself. */
export function languageName(tag: string, locale?: string): string {
  try {
    return new Intl.DisplayNames(locale ? [locale] : undefined, { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** A kind's label in the current language (issue 43; model/kind-labels). */
export const kindLabel = (kind: CommissionKind): string => commissionKindLabel(kind);
