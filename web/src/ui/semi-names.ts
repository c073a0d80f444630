// The few names Semi writes in English whatever its locale, put in Chinese where they are read: the
// date picker's box (Choose date / Change date), a tree table's expand button (Expand this row), a
// select's box (selected), and
// the type name its icons give themselves (close, chevron_up, tree_triangle_right…) where the icon is
// not the only name of a control (a tag's ✕, a number box's steppers, an expand button already
// named). No prop of Semi's reaches them, so they are rewritten as Semi renders them.

const NAMES: Readonly<Record<string, string>> = {
  'Choose date': '选择日期',
  'Change date': '更改日期',
  'Expand this row': '展开或收起',
  // A select's box holding a choice (read where no label of ours names the box).
  selected: '已选择',
};

const SELECTOR = '[aria-label], .semi-icon[role="img"]';

function rename(element: Element): void {
  const label = element.getAttribute('aria-label');
  if (label === null) return;
  const chinese = NAMES[label];
  if (chinese !== undefined) {
    element.setAttribute('aria-label', chinese);
    return;
  }
  // Semi's icon types are lower-case English (tree_triangle_right); an icon of ours named in Chinese stays.
  if (!element.classList.contains('semi-icon') || !/^[a-z_\d]+$/.test(label)) return;
  if (element.getAttribute('aria-hidden') === 'true') return;
  // An icon that alone names a control (a button with no other name) keeps its name: none is worse.
  const control = element.parentElement?.closest('button, a[href], [tabindex]:not([tabindex="-1"])');
  if (control && !control.hasAttribute('aria-label') && control.textContent?.trim() === '') return;
  element.setAttribute('aria-hidden', 'true');
}

function renameWithin(node: Node): void {
  if (!(node instanceof Element)) return;
  if (node.matches(SELECTOR)) rename(node);
  for (const element of node.querySelectorAll(SELECTOR)) rename(element);
}

/** Keeps Semi's English names out of `root` from now on; returns what stops it. */
export function keepSemiNamesChinese(root: HTMLElement): () => void {
  renameWithin(root);
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') rename(record.target as Element);
      else record.addedNodes.forEach(renameWithin);
    }
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
  return () => observer.disconnect();
}
