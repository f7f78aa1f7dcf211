import { useLingui } from '@lingui/react/macro';
import { Moon, Sun } from 'lucide-react';
import { useTheme } from '../../lib/theme';
import { Button } from '../../ui/button';

/** Moon while light (switches to dark), sun while dark (switches to light). */
export function ThemeToggle() {
  const { t } = useLingui();
  const { theme, toggleTheme } = useTheme();
  const isDark = theme === 'dark';
  return (
    <Button
      variant="icon"
      onClick={toggleTheme}
      aria-label={isDark ? t`Switch to light theme` : t`Switch to dark theme`}
    >
      {isDark ? <Sun aria-hidden="true" size="1.4em" /> : <Moon aria-hidden="true" size="1.4em" />}
    </Button>
  );
}
