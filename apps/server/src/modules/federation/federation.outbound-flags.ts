import type { Federation } from '@fedify/fedify';
import { Flag } from '@fedify/vocab';
import { REPORT_REASON_LABELS, type ReportReason } from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import type { EventBus } from '../../events/bus.js';
import { INSTANCE_ACTOR } from './federation.instance.js';
import { withoutRefused } from './federation.safety.js';
import { claimForwardedReport } from './federation.sql.js';

/**
 * A report here of a remote person's work, comment or account, sent to their server too when its reporter asked
 * (issue 39, "Also send to <host>"), as Mastodon's `ReportService#forward_to_origin!` does: a `Flag` from the instance
 * actor (the reporter stays anonymous), its `object` the reported actor's id and the work's or comment's Note id
 * (Mastodon's `activity/flag.rb` makes a report only for an account it finds among the objects, with the statuses of
 * that account among the others), its `content` the reason and the reporter's note; to the actor's own inbox, signed by
 * the instance actor's key, through the delivery queue. Heard from the moderation module's `report-forwarded` event;
 * each report is claimed once (`reports.forwarded_at`). Nothing goes to a suspended server, nor without PUBLIC_ORIGIN.
 */
export function startFlagForwarding<Data>({
  federation,
  db,
  bus,
  origin,
  contextData,
  log,
}: {
  federation: Federation<Data>;
  db: Db;
  bus: EventBus;
  origin: string | undefined;
  contextData: Data;
  log: { warn(object: object, message: string): void };
}) {
  let chain: Promise<void> = Promise.resolve();

  async function forward(reportId: string) {
    if (!origin) return;
    const report = await claimForwardedReport(db, reportId);
    if (!report) return;
    const recipient = { id: new URL(report.actor_iri), inboxId: new URL(report.inbox), endpoints: null };
    const [to] = await withoutRefused(db, [], [recipient]);
    if (!to) return;
    const ctx = federation.createContext(new URL(origin), contextData);
    const actor = ctx.getActorUri(INSTANCE_ACTOR);
    const reason = REPORT_REASON_LABELS[report.reason as ReportReason] ?? report.reason;
    const flag = new Flag({
      id: new URL(`${actor.href}#flags/${reportId}`),
      actor,
      objects: [recipient.id, ...(report.object_iri ? [new URL(report.object_iri)] : [])],
      content: report.note ? `${reason}: ${report.note}` : reason,
    });
    await ctx.sendActivity({ identifier: INSTANCE_ACTOR }, to, flag);
  }

  bus.subscribe((event) => {
    if (event.type !== 'report-forwarded') return;
    const { reportId } = event;
    chain = chain.then(async () => {
      try {
        await forward(reportId);
      } catch (error) {
        log.warn({ err: error, reportId }, 'federation: a report could not be sent to its server');
      }
    });
  });

  return { idle: () => chain };
}
