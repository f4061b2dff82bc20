import { useParams } from 'react-router-dom';
import { PlaceholderPage } from '../ui/placeholder-page';
import { fillParams, type AdminPageSpec } from './admin-pages';

/** An admin page not built yet: its title and what it will hold, with the route's ids filled in. */
export function AdminPlaceholderPage({ spec }: { spec: AdminPageSpec }) {
  const params = useParams();
  return <PlaceholderPage title={spec.title} description={fillParams(spec.description, params)} />;
}
