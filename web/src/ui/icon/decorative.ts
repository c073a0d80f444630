// What makes each icon of ui/icons.ts decorative unless named (see there).
import { createElement, forwardRef, type ComponentProps } from 'react';
import type SemiIconSearch from '@douyinfe/semi-icons/lib/es/icons/IconSearch';

/** One of Semi's icon components (they all take the same props). */
type SemiIcon = typeof SemiIconSearch;
export type IconProps = ComponentProps<SemiIcon>;

/**
 * `Icon`, decorative unless named. Semi's Icon spreads its caller's props over its own role and
 * aria-label, so these win. The wrapper keeps `elementType = 'Icon'`, by which Semi's components
 * tell an icon from other content (its `isSemiIcon`: a Button's or an Input's icon classes), and
 * passes its ref on to the span.
 */
export function decorative(Icon: SemiIcon): SemiIcon {
  const Decorative = forwardRef<HTMLSpanElement, IconProps>(function Decorative(props, ref) {
    const named = Boolean(props['aria-label'] || props['aria-labelledby']);
    const a11y = named ? { role: 'img' } : { role: undefined, 'aria-label': undefined, 'aria-hidden': true };
    return createElement(Icon, { ...a11y, ...props, ref });
  });
  return Object.assign(Decorative, { elementType: 'Icon' });
}
