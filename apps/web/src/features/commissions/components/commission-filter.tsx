import { Trans, useLingui } from '@lingui/react/macro';
import { COMMISSION_CURRENCIES, COMMISSION_KINDS } from '@share-arts/contract';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../ui/button';
import { kindLabel } from '../model/format';
import styles from './commission-filter.module.css';

/** The query parameters of the filter, as the server reads them (search, tag pages, Explore: issue 42). */
const KEYS = ['open', 'kind', 'currency', 'priceMax'] as const;

/**
 * The filter to artists open for commissions kept in the page's address (so a filtered list can be shared and Back
 * restores it): the parameters to send with the list's requests, or undefined for none. A budget is sent with its
 * currency only (the server compares like currencies).
 */
export function useCommissionFilter(): Readonly<Record<string, string>> | undefined {
  const [params] = useSearchParams();
  const filter: Record<string, string> = {};
  if (params.get('open') === 'true') filter.open = 'true';
  const kind = params.get('kind');
  if (kind && (COMMISSION_KINDS as readonly string[]).includes(kind)) filter.kind = kind;
  const currency = params.get('currency');
  const budget = params.get('priceMax');
  if (
    currency &&
    (COMMISSION_CURRENCIES as readonly string[]).includes(currency) &&
    budget &&
    /^\d{1,8}$/.test(budget)
  ) {
    filter.currency = currency;
    filter.priceMax = budget;
  }
  return Object.keys(filter).length > 0 ? filter : undefined;
}

/**
 * "Open for commissions" filter of a list (search's people, a tag's page, Explore): only artists who are open, of a
 * kind of work, within a budget in one currency. Applied with its button (one new request, not one per keystroke).
 */
export function CommissionFilter({ label: given }: { label?: string }) {
  const { t } = useLingui();
  const label = given ?? t`Artists`;
  const id = useId();
  const [params, setParams] = useSearchParams();
  const current = useCommissionFilter();
  const [open, setOpen] = useState(current?.open === 'true' || !!current?.kind || !!current?.priceMax);
  const [kind, setKind] = useState(current?.kind ?? '');
  const [currency, setCurrency] = useState(current?.currency ?? 'EUR');
  const [budget, setBudget] = useState(current?.priceMax ?? '');

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = new URLSearchParams(params);
    for (const key of KEYS) next.delete(key);
    if (open) {
      next.set('open', 'true');
      if (kind) next.set('kind', kind);
      if (/^\d{1,8}$/.test(budget.trim())) {
        next.set('currency', currency);
        next.set('priceMax', budget.trim());
      }
    }
    setParams(next, { replace: true });
  };

  return (
    <form className={styles.filter} onSubmit={apply} aria-label={t`${label}: open for commissions`}>
      <label className={styles.option}>
        <input
          type="checkbox"
          className={styles.checkbox}
          checked={open}
          onChange={(event) => setOpen(event.target.checked)}
        />
        <span>
          <Trans>Open for commissions</Trans>
        </span>
      </label>
      <div className={styles.control}>
        <label htmlFor={`${id}-kind`}>
          <Trans>Kind of work</Trans>
        </label>
        <select id={`${id}-kind`} value={kind} disabled={!open} onChange={(event) => setKind(event.target.value)}>
          <option value="">{t`Any`}</option>
          {COMMISSION_KINDS.map((each) => (
            <option key={each} value={each}>
              {kindLabel(each)}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.control}>
        <label htmlFor={`${id}-budget`}>
          <Trans>Budget up to</Trans>
        </label>
        <span className={styles.budget}>
          <input
            id={`${id}-budget`}
            type="number"
            inputMode="numeric"
            min={0}
            value={budget}
            disabled={!open}
            onChange={(event) => setBudget(event.target.value)}
          />
          <select
            aria-label={t`Currency of the budget`}
            value={currency}
            disabled={!open}
            onChange={(event) => setCurrency(event.target.value)}
          >
            {COMMISSION_CURRENCIES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </span>
      </div>
      <Button type="submit" variant="secondary">
        <Trans>Apply</Trans>
      </Button>
    </form>
  );
}
