import type { Inquiry } from '@share-arts/contract';

/** An inquiry's state in words, as both people read it. */
export const STATE_LABELS: Record<Inquiry['state'], string> = {
  open: 'Waiting for an answer',
  accepted: 'Accepted',
  declined: 'Declined',
  done: 'Done',
};

/** "250 EUR", in the reader's way of writing numbers. */
export function budgetText(budget: Inquiry['budget']): string | null {
  if (!budget) return null;
  try {
    return new Intl.NumberFormat(undefined, {
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
