import { createContext } from 'react';

/**
 * How /landing's "Get Started" opens the sign-in page. Inside the router (pages/routed-landing.tsx) it is the router's
 * navigation; on a first visit of /landing, which downloads no router (pages/standalone-landing.tsx, the page's budget),
 * it starts the router at the new address.
 */
export interface LandingNav {
  /** The location's state the page was opened with (where a visitor was going), carried to the sign-in page. */
  state: unknown;
  /** Opens `to` in the app with `state`. */
  go: (to: string, state: unknown) => void;
  /** Asks for what `go` will need, when the pointer or the focus reaches the link. */
  prepare?: () => void;
}

export const LandingNavContext = createContext<LandingNav | null>(null);
