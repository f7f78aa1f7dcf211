import { useDocumentTitle } from '../../../lib/use-document-title';
import { PageHeading } from '../../../ui/page-heading';

export default function PostPage() {
  useDocumentTitle('Post');
  return <PageHeading title="Post" description="This post and its comments will be shown here once posts are ready." />;
}
