import { MapPinOff } from 'lucide-react';
import { useDocumentTitle } from '../lib/use-document-title';
import { NotFound } from '../ui/not-found';

export default function NotFoundPage() {
  useDocumentTitle('Not found');
  return (
    <NotFound icon={MapPinOff} title="Page not found">
      There is nothing at this address. Check the link, or find art on Explore.
    </NotFound>
  );
}
