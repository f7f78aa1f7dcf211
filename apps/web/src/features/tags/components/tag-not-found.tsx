import { Trans, useLingui } from '@lingui/react/macro';
import { Hash } from 'lucide-react';
import { TAG_LIMITS } from '@share-arts/contract';
import { NotFound } from '../../../ui/not-found';

/** An address that cannot be a tag (`/tags/a-b`, `/tags/%20`): the not-found page, saying what a tag is. */
export function TagNotFound() {
  const { t } = useLingui();
  const maxLength = TAG_LIMITS.maxLength;
  return (
    <NotFound icon={Hash} title={t`Page not found`}>
      <Trans>
        There is no tag at this address: a tag is 1 to {maxLength} letters, digits or underscores, like #watercolor.
        Check the link, or find art on Explore.
      </Trans>
    </NotFound>
  );
}
