// Resume reading: where this reader last read a document, kept as they read (a member's on the
// server, so it follows them to any device; a visitor's in this browser), and offered when they
// open it again ("继续阅读（第 N 页）").
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ReadingPosition } from '../../../../shared/types/document';
import { api, unwrap } from '../../api/client';
import { documentKeys } from '../document/api';

/** How long the reader stays on a page before it is kept as the place to resume. */
const SETTLE_MS = 800;

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
 * has moved (opening at page 1 does not overwrite the place to resume from).
 */
export function useResumeReading(
  documentId: number,
  userId: number,
  current: number,
): { offer: number | null; dismiss: () => void } {
  const member = userId > 0;
  const remote = useQuery({ ...readingPositionQuery(documentId, userId), enabled: member });
  const [local] = useState(() => (member ? 0 : storedPage(documentId)));
  const [dismissed, setDismissed] = useState(false);
  const [first] = useState(current);
  const [moved, setMoved] = useState(false);
  // Once the reader has left the page they opened at, every page they settle on is kept.
  if (!moved && current !== first) setMoved(true);

  useEffect(() => {
    if (!moved) return undefined;
    const timer = setTimeout(() => {
      if (member) void api.put<ReadingPosition>('/api/v1/document/reading', { document_id: documentId, page: current });
      else {
        try {
          window.localStorage.setItem(storageKey(documentId), String(current));
        } catch {
          // a browser that keeps nothing (private mode, full storage) resumes nothing
        }
      }
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [current, documentId, member, moved]);

  const page = member ? (remote.data?.page ?? 0) : local;
  const offer = !dismissed && !moved && page > 1 ? page : null;
  return { offer, dismiss: () => setDismissed(true) };
}
