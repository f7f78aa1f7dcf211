import type { PageMessage } from './protocol';

/**
 * Registers the service worker (/sw.js, built from src/sw/sw.ts) once the page has loaded and is idle:
 * main.tsx imports this small module then, so neither it nor the worker's script is on the first paint's path
 * (the notices' code, lib/pwa/banners.ts, loads only when one is shown). Nothing here may break the page: without
 * a worker (an old browser, a private window that blocks it, a failed registration) the app is a plain website.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(watchUpdates, () => {
    // Blocked or failed: the app goes on without offline support.
  });
  watchConnection();
}

/**
 * A new version installed while this page runs waits (src/sw/sw.ts never skips waiting by itself): the page
 * offers "Reload", which lets it take over and reloads once it controls the page, so one page never runs a mix
 * of two builds' files. Left alone, it takes over the next time every tab of the app is closed.
 */
function watchUpdates(registration: ServiceWorkerRegistration): void {
  let reloading = false;
  const offer = () => {
    const waiting = registration.waiting;
    // The first install has no older version to replace: nothing to offer.
    if (!waiting || !navigator.serviceWorker.controller) return;
    void import('./banners').then(({ showUpdatePrompt }) =>
      showUpdatePrompt(() => {
        reloading = true;
        waiting.postMessage({ type: 'skip-waiting' } satisfies PageMessage);
      }),
    );
  };
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading) window.location.reload();
  });
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') offer();
    });
  });
  offer();
  // A tab left open for days still hears of new versions: look again when it comes back to the front.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void registration.update().catch(() => {});
  });
}

/** Sends a message to the worker that controls the page, if any. */
export function postToWorker(message: PageMessage): void {
  try {
    navigator.serviceWorker?.controller?.postMessage(message);
  } catch {
    // No worker: nothing to tell.
  }
}

/** "You're offline" while the browser says so; back online, the writes queued meanwhile are sent. */
function watchConnection(): void {
  let hide: Promise<() => void> | undefined;
  const update = () => {
    if (!navigator.onLine) hide ??= import('./banners').then(({ showOfflineBanner }) => showOfflineBanner());
    else {
      void hide?.then((remove) => remove());
      hide = undefined;
      // Also on every start: where the browser has no Background Sync, what an earlier visit queued goes now.
      postToWorker({ type: 'replay-writes' });
    }
  };
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  update();
}
