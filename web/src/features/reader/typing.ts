// Whether the keyboard is in a text field: the reader's keys (←/→, +/−) leave it alone, and the
// download bar steps aside (a phone's on-screen keyboard is then up).
export function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return Boolean(element && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName)));
}
