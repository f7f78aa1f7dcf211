import { Link } from 'react-router';
import { useDocumentTitle } from '../lib/use-document-title';
import { PageHeading } from '../ui/page-heading';

export default function NotFoundPage() {
  useDocumentTitle('Not found');
  return (
    <>
      <PageHeading title="Page not found" description="There is nothing at this address." />
      <Link to="/">Back to Home</Link>
    </>
  );
}
