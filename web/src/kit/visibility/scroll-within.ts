// Bringing an item of a scrolling list into view by scrolling the list alone: the element's own
// scrollIntoView would scroll every scrolling box around it too, the page included, and move
// what the reader was looking at (the page of a document, a screen of the back office).

/** Scrolls `list` the least that shows `item` whole (its top when it is taller than the list). */
export function scrollWithin(list: HTMLElement, item: HTMLElement): void {
  const box = list.getBoundingClientRect();
  const row = item.getBoundingClientRect();
  const above = box.top - row.top;
  const below = row.bottom - box.bottom;
  if (above > 0) list.scrollTop -= above;
  else if (below > 0) list.scrollTop += Math.min(below, -above);
}
