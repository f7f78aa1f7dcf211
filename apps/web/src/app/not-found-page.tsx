import { Trans, useLingui } from '@lingui/react/macro';
import { MapPinOff } from 'lucide-react';
import { useDocumentTitle } from '../lib/use-document-title';
import { NotFound } from '../ui/not-found';

export default function NotFoundPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Not found`);
  return (
    <NotFound icon={MapPinOff} title={t`Page not found`}>
      <Trans>There is nothing at this address. Check the link, or find art on Explore.</Trans>
    </NotFound>
  );
}
