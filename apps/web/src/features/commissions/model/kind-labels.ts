import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { CommissionKind } from '@share-arts/contract';

/**
 * The label of each kind of commissioned work in the app's language (issue 43): the contract's
 * COMMISSION_KIND_LABELS, whose English these are word for word (kind-labels.test.ts).
 */
export const COMMISSION_KIND_TEXT = {
  illustration: msg`Illustration`,
  'character-design': msg`Character design`,
  portrait: msg`Portrait`,
  'concept-art': msg`Concept art`,
  comic: msg`Comic`,
  logo: msg`Logo`,
  'tattoo-design': msg`Tattoo design`,
  other: msg({ message: 'Other', comment: 'A kind of commissioned work: none of the others' }),
} satisfies Record<CommissionKind, MessageDescriptor>;

/** A kind's label in the current language. */
export const commissionKindLabel = (kind: CommissionKind): string => i18n._(COMMISSION_KIND_TEXT[kind]);
