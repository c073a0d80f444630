// Text that follows the reader's browser font size (decision 111): a PostCSS pass of the build
// over every stylesheet, the site's and Semi's, that writes text sizes and the heights that hold
// text in rem of the browser's 16 px, so that at 16 px the page is drawn as before to the pixel.

/** The browser's default font size, which 1rem is while the site sets none on <html>. */
const ROOT_PX = 16;

/** Text's own sizes. */
const TEXT = new Set(['font', 'font-size', 'line-height', 'letter-spacing', 'word-spacing']);

/** What must grow with the text it holds: the heights and vertical paddings of buttons, fields, rows. */
const HEIGHTS = new Set([
  'height',
  'min-height',
  'padding-top',
  'padding-bottom',
  'padding-block',
  'padding-block-start',
  'padding-block-end',
]);

/** A px length of 2 px or more: a hairline (1 px, 0.5 px) stays one. */
const PX = /(?<![\w.])(-?\d*\.?\d+)px\b/g;

function rem(value: string): string {
  return value.replace(PX, (whole, number: string) => {
    const px = Number(number);
    return Math.abs(px) < 2 ? whole : `${px / ROOT_PX}rem`;
  });
}

/** `padding`'s top and bottom in rem, its sides in px (a width that grows could overflow a phone). */
function verticalPadding(value: string): string {
  const parts = value.trim().split(/\s+/);
  // A function (calc(), env()) spans several parts: the shorthand is left as it is.
  if (parts.some((part) => part.includes('(')) || parts.length > 4) return value;
  // top, right, bottom, left; fewer parts repeat the ones before (a single one: all four).
  const [top = '', right = top, bottom, left] = parts;
  const sides = [rem(top), right];
  if (bottom !== undefined) sides.push(rem(bottom));
  if (left !== undefined) sides.push(left);
  return sides.join(' ');
}

const hasPx = (value: string | undefined) => value !== undefined && /\d(?:\.\d+)?px\b/.test(value);

/** The parts of a PostCSS rule and declaration this pass reads and writes. */
interface Declaration {
  prop: string;
  value: string;
}
interface Rule {
  nodes?: ({ type: string } & Partial<Declaration>)[];
}

/**
 * A box with a fixed width and height in px (a checkbox, a switch, an avatar, an icon, a QR code)
 * keeps them, and its text with them, as an image keeps its size: grown in one direction only it
 * was out of shape, and text grown inside it ran out of it.
 */
function fixedBox(rule: Rule): boolean {
  const declared = new Map(
    (rule.nodes ?? []).flatMap((node) => (node.type === 'decl' && node.prop ? [[node.prop, node.value]] : [])),
  );
  return hasPx(declared.get('width')) && hasPx(declared.get('height'));
}

/** Writes the text sizes, heights and vertical paddings in rem: borders, shadows, widths and gaps stay px. */
export function textSizesInRem() {
  return {
    postcssPlugin: 'text-sizes-in-rem',
    Rule(rule: Rule) {
      if (fixedBox(rule)) return;
      for (const node of rule.nodes ?? []) {
        if (node.type !== 'decl' || !node.prop || !node.value || !node.value.includes('px')) continue;
        const decl = node as Declaration;
        if (TEXT.has(decl.prop) || HEIGHTS.has(decl.prop)) decl.value = rem(decl.value);
        else if (decl.prop === 'padding') decl.value = verticalPadding(decl.value);
      }
    },
  };
}
