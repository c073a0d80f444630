// The target of a link's #hash (`#comments`, `#comment-42`) that is not where the page first lays
// it: the router scrolls to it once, as the screen is drawn (if it is drawn by then), and then what
// is above it takes its size (a reader's page images of another shape, an article's pictures, what
// loads beside) and pushes it out of sight. Here it is kept at the window's top (under the sticky
// header: the page's scroll-padding) while the layout above it changes, until the reader moves on
// their own.
import { useEffect, useSyncExternalStore } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import { placeRestored, useRouterKey } from './place-restored';

/** What the reader does to scroll or act by themself: each ends the following. */
export const OWN_MOVES = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

/** How many anchors hold their target in view now, and who to tell when that changes. */
let holding = 0;
const holdListeners = new Set<() => void>();
function setHolding(change: 1 | -1) {
  holding += change;
  for (const listener of holdListeners) listener();
}

/**
 * Brings the first drawn element of `ids` (a part, else what holds it until it is drawn) to the
 * window's top and keeps it there whenever what is before it in the page changes size or gets new
 * parts, until `stop` or a move of the reader's own.
 */
function keepInView(ids: readonly string[]): () => void {
  const target = () => ids.map((id) => document.getElementById(id)).find(Boolean) ?? null;
  let aligned: Element | null = null;
  const align = () => {
    const element = target();
    // The part drawn at last (or drawn anew): what comes before it is watched from now on.
    if (element !== aligned) {
      aligned = element;
      watchBefore();
    }
    element?.scrollIntoView({ block: 'start' });
  };
  let held = true;
  setHolding(1);
  const release = () => {
    if (held) setHolding(-1);
    held = false;
    for (const move of OWN_MOVES) window.removeEventListener(move, release, true);
  };
  for (const move of OWN_MOVES) window.addEventListener(move, release, { capture: true, passive: true });
  // Without the observers (a very old browser), the router's one scroll to it is all.
  if (typeof ResizeObserver === 'undefined') return release;
  const sizes = new ResizeObserver(align);
  const insertions = new MutationObserver(() => {
    watchBefore();
    align();
  });
  // The boxes before the target (its previous siblings and its ancestors'), and the ancestors'
  // children, where a box may come in before it (or the target itself be drawn anew); and, while
  // it stands in for the part, all inside it, where the part comes.
  function watchBefore() {
    sizes.disconnect();
    insertions.disconnect();
    sizes.observe(document.documentElement);
    const node = target();
    if (node && node.id !== ids[0]) insertions.observe(node, { childList: true, subtree: true });
    for (let at = node; at?.parentElement; at = at.parentElement) {
      insertions.observe(at.parentElement, { childList: true });
      for (let before = at.previousElementSibling; before; before = before.previousElementSibling)
        sizes.observe(before);
    }
  }
  const stop = () => {
    sizes.disconnect();
    insertions.disconnect();
    release();
    for (const move of OWN_MOVES) window.removeEventListener(move, stop, true);
  };
  for (const move of OWN_MOVES) window.addEventListener(move, stop, { capture: true, passive: true });
  align();
  return stop;
}

/**
 * While the address's hash is `#id`, or names a part of it that `holds` accepts (a comment among
 * the comments), from a link followed or loaded: keeps the element of that id (the caller's, drawn
 * with it) in view as the page around it settles; for a part, the part once it is drawn, and the
 * element of `id` until then (or for good, when the part is gone).
 */
export function useHashAnchor(id: string, holds?: (part: string) => boolean): void {
  const router = useRouterKey();
  const location = useLocation();
  const navigation = useNavigationType();
  const named = location.hash.slice(1);
  const part = named !== id && holds?.(named) ? named : undefined;
  // A link followed or loaded, not a place put back. Decided once per address and kept through a
  // replace of it (the reader's canonical address keeps the hash).
  const follow = (named === id || part !== undefined) && !placeRestored(router, location, navigation);
  useEffect(() => (follow ? keepInView(part ? [part, id] : [id]) : undefined), [follow, part, id]);
}

/**
 * Whether a hash anchor holds its target in view now (a link to the comments, until the reader
 * moves on their own): where the page is then scrolled to is the link's doing, not the reader's.
 */
export function useHashAnchorHolding(): boolean {
  return useSyncExternalStore(
    (listener) => {
      holdListeners.add(listener);
      return () => holdListeners.delete(listener);
    },
    () => holding > 0,
    () => false,
  );
}
