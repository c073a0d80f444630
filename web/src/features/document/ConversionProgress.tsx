// A document's conversion on its way, where its uploader or the admins follow it: the upload
// screen's 转换状态, 我的文档 and the admin's 文档列表. A member's lists carry no progress
// (ListDocument), so there each document underway asks for its own (the owner's GetDocument),
// again until its conversion ends (`documentProgressQuery`). The admins' list carries it
// (`convert_progress`, ours) and is asked again itself while a row converts: its rows ask for
// nothing, which for a hidden document would be a 404 to an admin who may list documents but not
// read hidden ones (decision 096).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DocumentStatus } from '../../../../shared/constants';
import type { Document } from '../../../../shared/types/document';
import { documentKeys, documentProgressQuery } from './api';
import { awaitsReviewConversion, conversionUnderway } from './conversion';
import './conversion-progress.css';

/**
 * 等待转换 while queued, then the pages done of all. In review, a note says the same state
 * (等待转换 or 转换中), then `reviewNote`: what becomes of the document after it. When the
 * document's own answer says the conversion ended, the lists showing it (`doc`, underway) are
 * asked again at once, rather than at their next turn, which may be half a minute away.
 * `listed`: `doc` is as a list that follows the conversion itself gives it: nothing is asked.
 */
export function ConversionProgress({
  doc,
  reviewNote,
  listed = false,
}: {
  doc: Document;
  reviewNote: string;
  listed?: boolean;
}) {
  const client = useQueryClient();
  const polled = useQuery({ ...documentProgressQuery(doc.id ?? 0), enabled: !listed }).data ?? doc;
  const ended = !conversionUnderway(polled);
  useEffect(() => {
    if (!ended) return;
    void client.invalidateQueries({ queryKey: documentKeys.mine });
    void client.invalidateQueries({ queryKey: documentKeys.admin });
  }, [ended, client]);
  if (ended) return null;
  const done = polled.convert_progress?.done ?? 0;
  const total = polled.convert_progress?.total ?? 0;
  const converting = (polled.status === DocumentStatus.Converting || awaitsReviewConversion(polled)) && total > 0;
  // Its job has begun (status 1, beside the tag 转换中) but counted no page yet: a bar that
  // says it works, not 等待转换. A document in review says that it began by its pages alone.
  const started = converting || polled.status === DocumentStatus.Converting;
  return (
    <span className="app-conversion">
      <progress
        className="app-conversion__bar"
        max={total || 1}
        {...(converting ? { value: done } : started ? {} : { value: 0 })}
        aria-label={`${doc.title} 转换进度`}
      />
      <span className="app-conversion__count">
        {converting ? `已完成 ${done} / ${total} 页` : started ? '已开始转换' : '等待转换'}
      </span>
      {awaitsReviewConversion(doc) && (
        <span className="app-conversion__note">{`${converting ? '转换中' : '等待转换'}，${reviewNote}`}</span>
      )}
    </span>
  );
}
