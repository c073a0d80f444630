// How a scroll the site starts itself moves (返回顶部, a form's first wrong field brought into view):
// gliding, unless the visitor asked their system for less motion (prefers-reduced-motion), whom
// a page sliding by can make dizzy or sick. A `behavior` given to scrollTo or scrollIntoView wins
// over the stylesheet's scroll-behavior, so app.css alone cannot stop these.

/** 'smooth', or 'auto' (a jump) where the visitor prefers reduced motion. */
export function scrollMotion(): ScrollBehavior {
  const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  return reduced ? 'auto' : 'smooth';
}
