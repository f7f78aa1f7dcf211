import { t } from '@lingui/core/macro';
import styles from './banners.module.css';

/** The notices' container, made on first use. */
function stack(): HTMLElement {
  let element = document.querySelector<HTMLElement>('[data-pwa-banners]');
  if (!element) {
    element = document.createElement('div');
    element.className = styles.stack!;
    element.dataset.pwaBanners = '';
    document.body.append(element);
  }
  return element;
}

function banner(text: string, role: 'status' | 'alert'): HTMLElement {
  const element = document.createElement('div');
  element.className = styles.banner!;
  element.setAttribute('role', role);
  const words = document.createElement('span');
  words.textContent = text;
  element.append(words);
  stack().append(element);
  return element;
}

/** "You're offline", until the returned function takes it away. */
export function showOfflineBanner(): () => void {
  const element = banner(t`You're offline. What you do is sent when you're back online.`, 'status');
  element.dataset.offlineBanner = '';
  return () => element.remove();
}

/** "A new version is ready — Reload": once only; `reload` makes the new version take over and reloads. */
export function showUpdatePrompt(reload: () => void): void {
  if (document.querySelector('[data-update-prompt]')) return;
  const element = banner(t`A new version of Share Arts is ready.`, 'alert');
  element.dataset.updatePrompt = '';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = styles.action!;
  button.textContent = t`Reload`;
  button.addEventListener('click', () => {
    button.disabled = true;
    reload();
  });
  element.append(button);
}
