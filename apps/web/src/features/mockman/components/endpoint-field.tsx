import { Trans, useLingui } from '@lingui/react/macro';
import type { RefObject } from 'react';
import { suggestionValue, useEndpointSuggestions } from '../lib/openapi';
import { METHODS, type HttpMethod } from '../lib/request';
import styles from './request-form.module.css';

interface EndpointFieldProps {
  method: HttpMethod;
  endpoint: string;
  /** A problem with the endpoint found when sending. */
  error: string | undefined;
  inputRef: RefObject<HTMLInputElement | null>;
  onMethodChange: (method: HttpMethod) => void;
  onEndpointChange: (input: HTMLInputElement) => void;
}

/** Method and endpoint on one line; the endpoint suggests the API's routes (read from its OpenAPI document). */
export function EndpointField({
  method,
  endpoint,
  error,
  inputRef,
  onMethodChange,
  onEndpointChange,
}: EndpointFieldProps) {
  const { t } = useLingui();
  const suggestions = useEndpointSuggestions();
  const routeCount = suggestions.data?.length ?? 0;
  return (
    <>
      <div className={styles.line}>
        <div className={styles.methodField}>
          <label className={styles.label} htmlFor="mockman-method">
            <Trans>Method</Trans>
          </label>
          <select
            id="mockman-method"
            className={`${styles.control} ${styles.select}`}
            value={method}
            onChange={(event) => onMethodChange(event.target.value as HttpMethod)}
          >
            {METHODS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.endpointField}>
          <label className={styles.label} htmlFor="mockman-endpoint">
            <Trans>Endpoint</Trans>
          </label>
          <input
            ref={inputRef}
            id="mockman-endpoint"
            className={`${styles.control} ${styles.mono}`}
            value={endpoint}
            onChange={(event) => onEndpointChange(event.target)}
            list="mockman-routes"
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="off"
            inputMode="url"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'mockman-endpoint-error mockman-endpoint-hint' : 'mockman-endpoint-hint'}
          />
          <datalist id="mockman-routes">
            {suggestions.data?.map((route) => (
              <option key={suggestionValue(route)} value={suggestionValue(route)} label={route.summary} />
            ))}
          </datalist>
        </div>
      </div>
      {error && (
        <p id="mockman-endpoint-error" className={styles.error}>
          {error}
        </p>
      )}
      <p id="mockman-endpoint-hint" className={styles.hint}>
        {suggestions.isError
          ? t`A path on this site, such as /api/health. Route suggestions could not be loaded.`
          : routeCount > 0
            ? t`A path on this site, or pick one of ${routeCount} API routes (method and path). Replace placeholders such as :id with real values.`
            : t`A path on this site, such as /api/health.`}
      </p>
    </>
  );
}
