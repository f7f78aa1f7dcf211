import { type InsightsDay, type InsightsSource, type PostInsights, type ProfileInsights } from '@share-arts/contract';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type ReactNode } from 'react';
import { Button } from '../../../ui/button';
import type { InsightsWindow } from '../api/insights-queries';
import styles from './insights-view.module.css';
import { viewSourceLabel } from '../lib/view-source-labels';

const WINDOWS: InsightsWindow[] = [7, 30, 90];

/** Days and figures in the current language (issue 43). */
function useFormats() {
  const { i18n } = useLingui();
  const dayFormat = new Intl.DateTimeFormat(i18n.locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const numberFormat = new Intl.NumberFormat(i18n.locale);
  return {
    dayLabel: (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`)),
    count: (value: number) => numberFormat.format(value),
  };
}

/** The window's choice: three toggle buttons, the chosen one pressed. */
export function WindowChoice({ days, onChange }: { days: InsightsWindow; onChange: (days: InsightsWindow) => void }) {
  const { t } = useLingui();
  return (
    <div role="group" aria-label={t`Period`} className={styles.windows}>
      {WINDOWS.map((window) => (
        <button
          key={window}
          type="button"
          className={styles.window}
          aria-pressed={window === days}
          onClick={() => onChange(window)}
        >
          <Trans>{window} days</Trans>
        </button>
      ))}
    </div>
  );
}

interface Metric {
  key: keyof Omit<InsightsDay, 'day'>;
  label: MessageDescriptor;
}

/** The totals of the window, one figure each. */
export function Totals({ items }: { items: { label: string; value: number }[] }) {
  const { count } = useFormats();
  return (
    <dl className={styles.totals}>
      {items.map((item) => (
        <div key={item.label} className={styles.total}>
          <dt>{item.label}</dt>
          <dd>{count(item.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A small bar chart of one metric per day: a picture only (the table beside it says the same in words). */
function DayChart({ daily, metric }: { daily: InsightsDay[]; metric: Metric }) {
  const { i18n } = useLingui();
  const { count, dayLabel } = useFormats();
  const values = daily.map((day) => day[metric.key] ?? 0);
  const max = Math.max(1, ...values);
  const width = daily.length * 10;
  const peak = count(Math.max(0, ...values));
  return (
    <figure className={styles.chart}>
      <figcaption className={styles.chartTitle}>
        {i18n._(metric.label)}{' '}
        <span className={styles.chartMax}>
          <Trans>(peak {peak})</Trans>
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${width} 60`} preserveAspectRatio="none" aria-hidden="true" className={styles.bars}>
        <line x1="0" y1="59.5" x2={width} y2="59.5" className={styles.axis} />
        {values.map((value, index) =>
          value > 0 ? (
            <rect
              key={daily[index]!.day}
              x={index * 10 + 1.5}
              y={60 - (value / max) * 58}
              width={7}
              height={(value / max) * 58}
              rx={1}
              className={styles.bar}
            />
          ) : null,
        )}
      </svg>
      <div className={styles.chartRange} aria-hidden="true">
        <span>{dayLabel(daily[0]!.day)}</span>
        <span>{dayLabel(daily.at(-1)!.day)}</span>
      </div>
    </figure>
  );
}

/** The charts of the window and their numbers as a table (read by screen readers; shown on demand). */
export function DailyCharts({ daily, metrics, days }: { daily: InsightsDay[]; metrics: Metric[]; days: number }) {
  const { t, i18n } = useLingui();
  const { count, dayLabel } = useFormats();
  const [shown, setShown] = useState(false);
  const tableId = useId();
  return (
    <section className={styles.section} aria-labelledby={`${tableId}-title`}>
      <div className={styles.sectionHead}>
        <h2 id={`${tableId}-title`} className={styles.sectionTitle}>
          <Trans>Per day</Trans>
        </h2>
        <Button variant="secondary" aria-expanded={shown} aria-controls={tableId} onClick={() => setShown(!shown)}>
          {shown ? t`Hide the table` : t`Show as a table`}
        </Button>
      </div>
      <div className={styles.charts}>
        {metrics.map((metric) => (
          <DayChart key={metric.key} daily={daily} metric={metric} />
        ))}
      </div>
      {/* Shown, it scrolls (90 rows in a phone's width): focusable, so the keyboard scrolls it too. */}
      <div
        id={tableId}
        className={shown ? styles.tableWrap : 'visually-hidden'}
        tabIndex={shown ? 0 : undefined}
        role={shown ? 'region' : undefined}
        aria-labelledby={shown ? `${tableId}-title` : undefined}
      >
        <table className={styles.table}>
          <caption>
            <Trans>Per day, the last {days} days (UTC)</Trans>
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans>Day</Trans>
              </th>
              {metrics.map((metric) => (
                <th key={metric.key} scope="col">
                  {i18n._(metric.label)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {daily.map((day) => (
              <tr key={day.day}>
                <th scope="row">{dayLabel(day.day)}</th>
                {metrics.map((metric) => (
                  <td key={metric.key}>{count(day[metric.key] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Where the views came from: a table whose rows carry a bar of their share. */
export function SourcesTable({ sources, title }: { sources: InsightsSource[]; title: string }) {
  const { count } = useFormats();
  const { i18n } = useLingui();
  const percentFormat = new Intl.NumberFormat(i18n.locale, { style: 'percent' });
  const titleId = useId();
  const total = sources.reduce((sum, source) => sum + source.views, 0);
  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        {title}
      </h2>
      {sources.length === 0 ? (
        <p className={styles.muted}>
          <Trans>No views in this period yet.</Trans>
        </p>
      ) : (
        <table className={`${styles.table} ${styles.sources}`}>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans>Source</Trans>
              </th>
              <th scope="col">
                <Trans>Views</Trans>
              </th>
              <th scope="col">
                <Trans>Share</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {sources.map((source) => {
              const share = Math.round((source.views / total) * 100);
              return (
                <tr key={`${source.source} ${source.host ?? ''}`}>
                  <th scope="row">
                    {viewSourceLabel(source.source)}
                    {source.host && <span className={styles.host}> · {source.host}</span>}
                  </th>
                  <td>{count(source.views)}</td>
                  <td>
                    <span className={styles.share}>
                      <span className={styles.shareBar} style={{ width: `${share}%` }} aria-hidden="true" />
                      {percentFormat.format(share / 100)}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** What the numbers are, and what is not counted: the privacy page says the same. */
export function CountedNote({ children }: { children?: ReactNode }) {
  return (
    <p className={styles.note}>
      <Trans>
        Only you see these numbers, and never who viewed. A view is a person (or a signed-out visitor) seeing the page
        or the viewer of a work, once a day; your own views and bots are not counted. Days are in UTC.
      </Trans>
      {children}
    </p>
  );
}

export const POST_METRICS: Metric[] = [
  { key: 'views', label: msg`Views` },
  { key: 'likes', label: msg`Likes` },
  { key: 'saves', label: msg`Saves` },
  { key: 'collections', label: msg`Collections` },
];

export const PROFILE_METRICS: Metric[] = [
  { key: 'workViews', label: msg`Views of works` },
  { key: 'views', label: msg`Profile views` },
  { key: 'likes', label: msg`Likes` },
  { key: 'saves', label: msg`Saves` },
  { key: 'collections', label: msg`Collections` },
];

export type { PostInsights, ProfileInsights };
