import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { initialPostLanguage, LanguageField, ownName } from './language-field';
import { draftBody, isBlank } from './use-draft-autosave';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const render = (value: string | null) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <LanguageField value={value} onChange={() => {}} />
    </I18nProvider>,
  );

/** The options as a person (and a screen reader) meets them: value, lang, name, whether chosen. */
function options(html: string) {
  return [...html.matchAll(/<option value="([^"]*)"(?: lang="([^"]*)")?( selected="")?>([^<]*)<\/option>/g)].map(
    ([, value, lang, selected, name]) => ({ value, lang, name, selected: Boolean(selected) }),
  );
}

describe("the composer's language of the text", () => {
  it('offers the app’s five languages each by its own name and in its own language, and "Not said"', () => {
    const html = render('ja');
    expect(html).toContain('Language of the text');
    expect(options(html)).toEqual([
      { value: 'en', lang: 'en', name: 'English', selected: false },
      { value: 'es', lang: 'es', name: 'español', selected: false },
      { value: 'pt-BR', lang: 'pt-BR', name: 'português (Brasil)', selected: false },
      { value: 'ja', lang: 'ja', name: '日本語', selected: true },
      { value: 'ar', lang: 'ar', name: 'العربية', selected: false },
      { value: '', lang: undefined, name: 'Not said', selected: false },
    ]);
  });

  it('shows "Not said" chosen for none, and keeps a post’s other language on offer when editing it', () => {
    expect(options(render(null)).find((option) => option.selected)?.name).toBe('Not said');
    const german = options(render('de'));
    expect(german).toHaveLength(7);
    expect(german.find((option) => option.selected)).toEqual({
      value: 'de',
      lang: 'de',
      name: ownName('de'),
      selected: true,
    });
    expect(ownName('de')).toBe('Deutsch');
  });

  it('starts a new post with the last choice on this device, else the app’s language', () => {
    expect(initialPostLanguage(null, 'pt-BR')).toBe('pt-BR');
    expect(initialPostLanguage('ja', 'en')).toBe('ja');
    // "Not said" chosen last time.
    expect(initialPostLanguage('', 'en')).toBeNull();
  });

  it('is kept in the draft, and a choice of language alone is no draft worth saving', () => {
    const body = draftBody({
      content: ' ',
      items: [],
      rights: {
        contentWarning: null,
        commentPolicy: 'everyone',
        licence: 'all-rights-reserved',
        aiGenerated: false,
        downloadable: false,
      },
      series: { seriesId: '', chapter: '', set: () => {}, applyTo: () => {} },
      language: 'ar',
    });
    expect(body.language).toBe('ar');
    expect(isBlank(body)).toBe(true);
    expect(isBlank({ ...body, content: 'لوحة' })).toBe(false);
  });
});
