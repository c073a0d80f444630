// Widths of overlays that fit a phone's screen: what they ask for on a wide screen, never more
// than the screen (a 560 px sheet on a 390 px phone put its labels off the screen's left edge).

/** A side sheet's width: `px`, or the whole screen when it is narrower. */
export const sheetWidth = (px: number): string => `min(${px}px, 100vw)`;

/** A dialog's width: `px`, or the screen less a margin on each side. */
export const dialogWidth = (px: number): string => `min(${px}px, calc(100vw - 32px))`;
