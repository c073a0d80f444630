// Semi's SideSheet as every sheet of the site has it: its ✕ named 关闭, Escape closes it, the
// keyboard taken into it as it opens (Semi left it on the opener, behind the mask: Tab walked the
// page under the sheet, never reaching what is in it), and whichever way it closes (✕, Escape, 取消, a click beside it, a save) the keyboard goes back to
// what held it when the sheet opened (the button that opened it): removing the sheet under the
// focus left it on the page's <body>. A sheet is rendered when it opens and removed when it closes.
import { useEffect, useId, useState, type ComponentProps } from 'react';
import SemiSideSheet from '@douyinfe/semi-ui-19/lib/es/sideSheet';
import { IconClose } from './icons';

export type SideSheetProps = Omit<ComponentProps<typeof SemiSideSheet>, 'onCancel'> & {
  /** Closes the sheet (✕, Escape, a click beside it); none while it may not close (a save on its way). */
  onCancel?: () => void;
};

/**
 * Marks a field whose pop-up (a DatePicker's calendar) is open and closes it on Escape itself: the sheet leaves that
 * Escape to it.
 */
export const OPEN_POPUP_CLASS = 'app-popup-open';

/**
 * An Escape meant for a list or a calendar open inside the sheet (a Select's, a TreeSelect's, a DatePicker's): it
 * closes that only.
 */
const closesAList = (target: EventTarget | null) =>
  target instanceof Element &&
  target.closest(`[role="combobox"][aria-expanded="true"], .semi-popover-wrapper, .${OPEN_POPUP_CLASS}`) !== null;

export function SideSheet({ onCancel, closeOnEsc = true, className, ...props }: SideSheetProps) {
  // What held the focus as the sheet opened: the click on the opener gave it the focus.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));
  const escape = closeOnEsc ? onCancel : undefined;
  // The sheet's dialog (Semi's, focusable with tabindex -1), found by a class of its own.
  const sheetClass = `app-sheet-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const takeFocus = () => {
    const dialog = document.querySelector<HTMLElement>(`.${sheetClass} [role="dialog"]`);
    if (dialog && !dialog.contains(document.activeElement)) dialog.focus({ preventScroll: true });
  };
  // Once drawn (Semi draws it in a portal, at once or a frame later).
  useEffect(() => {
    takeFocus();
    const frame = requestAnimationFrame(takeFocus);
    return () => cancelAnimationFrame(frame);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!escape) return undefined;
    // Semi's own closeOnEsc hears only a keyCode of 27, and also the Escape that closes a list
    // open in the sheet: this one listens before the page's handlers, while that list is open.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !closesAList(event.target)) escape();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [escape]);

  useEffect(
    () => () => {
      const focused = document.activeElement;
      const lost = !focused || focused === document.body || focused.closest('.semi-sidesheet') !== null;
      if (lost && opener instanceof HTMLElement && opener !== document.body && opener.isConnected) opener.focus();
    },
    [opener],
  );

  return (
    <SemiSideSheet
      closeIcon={<IconClose aria-label="关闭" />}
      {...props}
      className={className ? `${className} ${sheetClass}` : sheetClass}
      onCancel={onCancel}
      closeOnEsc={false}
    />
  );
}
