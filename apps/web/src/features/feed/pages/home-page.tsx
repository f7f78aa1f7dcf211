import { useDocumentTitle } from '../../../lib/use-document-title';
import { PageHeading } from '../../../ui/page-heading';

export default function HomePage() {
  useDocumentTitle('Home');
  return (
    <PageHeading
      title="Home"
      description="Posts from the artists you follow will appear here once the feed is ready."
    />
  );
}
