import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toggleRelation } from '../api/relations';
import type { ReportTargetType } from '../api/safety-types';
import { ReportDialog } from './report-dialog';

export interface SafetyDialogProps {
  /** report: the report dialog; mute: mutes `username` at once (with its toast), drawing nothing. */
  action: 'report' | 'mute';
  targetType: ReportTargetType;
  targetId: string;
  /** For the title: "post", "comment", "@mira". */
  what: string;
  /** The author, for mute. */
  username: string;
  /** The server its author is on, when another one: the report may be sent there too. */
  remoteHost?: string | undefined;
  onClose: () => void;
}

/**
 * What a post's or a comment's menu opens for Report and "Mute @author", as one lazy module: the feed's
 * cards carry only the menu items, and this loads when one is chosen.
 */
export default function SafetyDialog({
  action,
  targetType,
  targetId,
  what,
  username,
  remoteHost,
  onClose,
}: SafetyDialogProps) {
  const queryClient = useQueryClient();
  const sent = useRef(false);
  useEffect(() => {
    if (action !== 'mute' || sent.current) return;
    sent.current = true;
    void toggleRelation(queryClient, 'mute', username, true).finally(onClose);
  }, [action, queryClient, username, onClose]);

  if (action === 'mute') return null;
  return (
    <ReportDialog targetType={targetType} targetId={targetId} what={what} remoteHost={remoteHost} onClose={onClose} />
  );
}
