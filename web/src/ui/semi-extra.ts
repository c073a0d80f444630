// Semi components that only lazy screens outside the admin use (the home page's carousel, the
// browser notice): kept out of semi.ts, whose every export is part of the first
// page load. Each component comes from its own module, as in semi.ts.
export { default as Banner } from '@douyinfe/semi-ui-19/lib/es/banner';
export { default as Carousel } from '@douyinfe/semi-ui-19/lib/es/carousel';
