// Resume reading: where this reader last read a document, kept as they read (a member's on the
// server, so it follows them to any device; a visitor's in this browser), and offered when they
// open it again ("继续阅读（第 N 页）"). A member's opening is kept too, so that 最近阅读 lists
// every document they opened, a one-page one included.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReadingPosition } from '../../../../shared/types/document';
import { api, unwrap } from '../../api/client';
import { useHashAnchorHolding } from '../../kit/visibility/use-hash-anchor';
import { usePlaceRestored } from '../../kit/visibility/place-restored';
import { invalidateAfter } from '../../api/query-client';
import { documentKeys } from '../document/api';
import { readingHistoryKeys } from '../reading-history/api';

/** How long the reader stays on a page before it is kept as the place to resume. */
export const SETTLE_MS = 800;

const storageKey = (documentId: number) => `moredoc:reading:${documentId}`;

function storedPage(documentId: number): number {
  try {
    return Number(window.localStorage.getItem(storageKey(documentId))) || 0;
  } catch {
    return 0;
  }
}

export const readingPositionQuery = (documentId: number, userId: number) => ({
  queryKey: [...documentKeys.all, 'reading', documentId, userId] as const,
  queryFn: async () => unwrap(await api.get<ReadingPosition>('/api/v1/document/reading', { document_id: documentId })),
  staleTime: 0,
});

/**
 * The page to offer resuming at (null: none), and keeps the page being read once the reader
 * has moved (opening at page 1 does not overwrite the place to resume from). A member's opening
 * is kept once, as soon as the server has said where they last read: that place again (it
 * becomes their newest reading and stays the place to resume from), or the page opened at.
 */
export function useResumeReading(
  documentId: number,
  userId: number,
  current: number,
): { offer: number | null; dismiss: () => void } {
  const member = userId > 0;
  const client = useQueryClient();
  const remote = useQuery({ ...readingPositionQuery(documentId, userId), enabled: member });
  const [local] = useState(() => (member ? 0 : storedPage(documentId)));
  // Back to the document (or a reload) where a place was kept: the reader is put back where they
  // were, with nothing to offer; an offer come and gone would move the pages under the place put
  // back (decision 095). Where none was kept, the document opens at its top, and the offer comes.
  const restored = usePlaceRestored();
  const [dismissed, setDismissed] = useState(restored);
  const [first] = useState(current);
  const [moved, setMoved] = useState(false);
  // A link to the comments scrolls the page to them (the last pages): not a page read. The page
  // it left the reader at is kept only once they have moved from it on their own.
  const anchoring = useHashAnchorHolding();
  const [anchoredAt, setAnchoredAt] = useState<number | null>(null);
  if (anchoring && anchoredAt !== current) setAnchoredAt(current);
  if (!anchoring && anchoredAt !== null && current !== anchoredAt) setAnchoredAt(null);
  const reading = !anchoring && anchoredAt === null;
  // Once the reader has left the page they opened at, every page they settle on is kept.
  if (!moved && reading && current !== first) setMoved(true);

  const keep = useCallback(
    (page: number) =>
      void invalidateAfter(
        api.put<ReadingPosition>('/api/v1/document/reading', { document_id: documentId, page }),
        { client },
        [readingHistoryKeys.all],
      ),
    [client, documentId],
  );

  // Only an answer asked after opening counts: a cached one may be older than the member's last
  // reading. Once the reader has moved, the write below keeps the opening too.
  const opened = useRef(false);
  const known = member && remote.isSuccess && remote.isFetchedAfterMount && !remote.isFetching;
  useEffect(() => {
    if (!known || opened.current) return;
    opened.current = true;
    if (!moved) keep(remote.data?.page || first);
  }, [known, moved, keep, remote.data, first]);

  useEffect(() => {
    if (!moved || !reading) return undefined;
    const timer = setTimeout(() => {
      if (member) keep(current);
      else {
        try {
          window.localStorage.setItem(storageKey(documentId), String(current));
        } catch {
          // a browser that keeps nothing (private mode, full storage) resumes nothing
        }
      }
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [current, documentId, member, moved, reading, keep]);

  const page = member ? (remote.data?.page ?? 0) : local;
  const offer = !dismissed && !moved && page > 1 ? page : null;
  return { offer, dismiss: () => setDismissed(true) };
}
