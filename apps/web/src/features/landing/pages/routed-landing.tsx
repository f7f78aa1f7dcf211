import { useLocation, useNavigate } from 'react-router';
import { LandingNavContext } from '../landing-nav';
import LandingPage from './landing-page';

/** /landing as a route of the app (a visitor sent there, or signed out): "Get Started" is the router's navigation. */
export default function RoutedLanding() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <LandingNavContext value={{ state: location.state, go: (to, state) => void navigate(to, { state }) }}>
      <LandingPage />
    </LandingNavContext>
  );
}
