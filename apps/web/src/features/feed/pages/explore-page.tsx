import { useDocumentTitle } from '../../../lib/use-document-title';
import { PageHeading } from '../../../ui/page-heading';

export default function ExplorePage() {
  useDocumentTitle('Explore');
  return (
    <PageHeading
      title="Explore"
      description="Every post shared on Share Arts will appear here once the feed is ready."
    />
  );
}
