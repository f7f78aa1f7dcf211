import {
  VIEW_SOURCE_LABELS,
  type InsightsDay,
  type InsightsSource,
  type PostInsights,
  type ProfileInsights,
} from '@share-arts/contract';
import { useId, useState, type ReactNode } from 'react';
import { Button } from '../../../ui/button';
import type { InsightsWindow } from '../api/insights-queries';
import styles from './insights-view.module.css';

const WINDOWS: InsightsWindow[] = [7, 30, 90];

const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayLabel = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
const numberFormat = new Intl.NumberFormat();
const count = (value: number) => numberFormat.format(value);

/** The window's choice: three toggle buttons, the chosen one pressed. */
export function WindowChoice({ days, onChange }: { days: InsightsWindow; onChange: (days: InsightsWindow) => void }) {
  return (
    <div role="group" aria-label="Period" className={styles.windows}>
      {WINDOWS.map((window) => (
        <button
          key={window}
          type="button"
          className={styles.window}
          aria-pressed={window === days}
          onClick={() => onChange(window)}
        >
          {window} days
        </button>
      ))}
    </div>
  );
}

interface Metric {
  key: keyof Omit<InsightsDay, 'day'>;
  label: string;
}

/** The totals of the window, one figure each. */
export function Totals({ items }: { items: { label: string; value: number }[] }) {
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
  const values = daily.map((day) => day[metric.key] ?? 0);
  const max = Math.max(1, ...values);
  const width = daily.length * 10;
  return (
    <figure className={styles.chart}>
      <figcaption className={styles.chartTitle}>
        {metric.label} <span className={styles.chartMax}>(peak {count(Math.max(0, ...values))})</span>
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
  const [shown, setShown] = useState(false);
  const tableId = useId();
  return (
    <section className={styles.section} aria-labelledby={`${tableId}-title`}>
      <div className={styles.sectionHead}>
        <h2 id={`${tableId}-title`} className={styles.sectionTitle}>
          Per day
        </h2>
        <Button variant="secondary" aria-expanded={shown} aria-controls={tableId} onClick={() => setShown(!shown)}>
          {shown ? 'Hide the table' : 'Show as a table'}
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
          <caption>Per day, the last {days} days (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {metrics.map((metric) => (
                <th key={metric.key} scope="col">
                  {metric.label}
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
  const titleId = useId();
  const total = sources.reduce((sum, source) => sum + source.views, 0);
  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        {title}
      </h2>
      {sources.length === 0 ? (
        <p className={styles.muted}>No views in this period yet.</p>
      ) : (
        <table className={`${styles.table} ${styles.sources}`}>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Views</th>
              <th scope="col">Share</th>
            </tr>
          </thead>
          <tbody>
            {sources.map((source) => {
              const share = Math.round((source.views / total) * 100);
              return (
                <tr key={`${source.source} ${source.host ?? ''}`}>
                  <th scope="row">
                    {VIEW_SOURCE_LABELS[source.source]}
                    {source.host && <span className={styles.host}> · {source.host}</span>}
                  </th>
                  <td>{count(source.views)}</td>
                  <td>
                    <span className={styles.share}>
                      <span className={styles.shareBar} style={{ width: `${share}%` }} aria-hidden="true" />
                      {share} %
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
      Only you see these numbers, and never who viewed. A view is a person (or a signed-out visitor) seeing the page or
      the viewer of a work, once a day; your own views and bots are not counted. Days are in UTC.{children}
    </p>
  );
}

export const POST_METRICS: Metric[] = [
  { key: 'views', label: 'Views' },
  { key: 'likes', label: 'Likes' },
  { key: 'saves', label: 'Saves' },
  { key: 'collections', label: 'Collections' },
];

export const PROFILE_METRICS: Metric[] = [
  { key: 'workViews', label: 'Views of works' },
  { key: 'views', label: 'Profile views' },
  { key: 'likes', label: 'Likes' },
  { key: 'saves', label: 'Saves' },
  { key: 'collections', label: 'Collections' },
];

export type { PostInsights, ProfileInsights };
