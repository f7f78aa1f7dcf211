import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Inquiry } from '@share-arts/contract';

/** An inquiry's state in words, as both people read it (render with `i18n._`). */
export const STATE_LABELS: Record<Inquiry['state'], MessageDescriptor> = {
  open: msg`Waiting for an answer`,
  accepted: msg`Accepted`,
  declined: msg`Declined`,
  done: msg`Done`,
};

/** "250 EUR", in the reader's way of writing numbers (`locale`: the app's language, issue 43). */
export function budgetText(budget: Inquiry['budget'], locale?: string): string | null {
  if (!budget) return null;
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: budget.currency,
      maximumFractionDigits: 0,
    }).format(budget.amount);
  } catch {
    return `${budget.amount} ${budget.currency}`;
  }
}

/** The other person of an inquiry, for the viewer. */
export const otherPerson = (inquiry: Inquiry) => (inquiry.viewer.role === 'artist' ? inquiry.client : inquiry.artist);
