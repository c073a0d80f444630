// Semi components that only lazy screens use (the home page's carousel, the browser notice, the
// forms' Input and Switch, the status Tag): kept out of semi.ts, whose every export is part of the first
// page load, whether a first screen uses it or not (Input and Tag there, with Tag's Avatar, were
// 9.4 KiB gzip of the first load of /). Each component comes from its own module, as in semi.ts.
export { default as Banner } from '@douyinfe/semi-ui-19/lib/es/banner';
export { default as Carousel } from '@douyinfe/semi-ui-19/lib/es/carousel';
export { default as Input } from '@douyinfe/semi-ui-19/lib/es/input';
export { default as Switch } from '@douyinfe/semi-ui-19/lib/es/switch';
// Tag: Semi's, without its English aria-label (Tag.tsx).
export { Tag } from './Tag';
