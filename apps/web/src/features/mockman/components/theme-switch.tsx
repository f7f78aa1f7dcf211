import { useLingui } from '@lingui/react/macro';
import { Moon, Sun } from 'lucide-react';
import { useTheme } from '../../../lib/theme';
import { Button } from '../../../ui/button';

/** This page has no app header, so it carries its own theme toggle (same names as the header's). */
export function ThemeSwitch() {
  const { t } = useLingui();
  const { theme, toggleTheme } = useTheme();
  const isDark = theme === 'dark';
  return (
    <Button
      variant="icon"
      onClick={toggleTheme}
      aria-label={isDark ? t`Switch to light theme` : t`Switch to dark theme`}
    >
      {isDark ? <Sun aria-hidden="true" size="1.3em" /> : <Moon aria-hidden="true" size="1.3em" />}
    </Button>
  );
}
