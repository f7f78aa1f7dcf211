import type { Messages } from '@lingui/core';
import type { Locale } from '@share-arts/contract';

/**
 * A language's whole catalogue (issue 43), compiled from src/locales/<code>.po by Lingui's Vite plugin: for the
 * development server and the server's render. The built app loads each chunk's words instead (boot/words.ts).
 */
const catalogues = import.meta.glob<{ messages: Messages }>(['../locales/*.po', '!../locales/en.po']);

export async function catalogue(locale: Locale): Promise<Messages> {
  const importer = catalogues[`../locales/${locale}.po`];
  if (!importer) throw new Error(`No catalogue for ${locale}`);
  return (await importer()).messages;
}
