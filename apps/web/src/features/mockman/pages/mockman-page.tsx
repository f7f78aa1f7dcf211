import { Link } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PageHeading } from '../../../ui/page-heading';
import styles from './mockman-page.module.css';

export default function MockmanPage() {
  useDocumentTitle('Mockman');
  return (
    <main className={styles.page}>
      <PageHeading
        title="Mockman"
        description="A developer console for sending test requests to the API will live here."
      />
      <Link to="/">Back to Home</Link>
    </main>
  );
}
