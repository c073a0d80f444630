import type { HTMLAttributes, ReactNode } from 'react';
import { Illustration, type IllustrationName } from './illustrations';
import './screen-message.css';

/**
 * A message that takes the whole screen in place of the app (the error screen, the closed
 * site): an illustration, the heading, and what the screen adds below it. `className` names
 * the screen for its own sizes.
 */
export function ScreenMessage({
  illustration,
  title,
  titleId,
  className,
  children,
  ...attributes
}: {
  illustration: IllustrationName;
  title: ReactNode;
  /** Labels the screen by its heading. */
  titleId?: string;
  className: string;
  children?: ReactNode;
} & Omit<HTMLAttributes<HTMLElement>, 'title' | 'className' | 'children'>) {
  return (
    // tabIndex -1: where the focus goes when the screen comes by a move inside the app (app/route-change.tsx).
    <main className={`app-screen-message ${className}`} aria-labelledby={titleId} tabIndex={-1} {...attributes}>
      <Illustration name={illustration} className="app-screen-message__image" />
      <h1 id={titleId} className="app-screen-message__title">
        {title}
      </h1>
      {children}
    </main>
  );
}
