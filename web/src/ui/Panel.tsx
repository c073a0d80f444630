import type { ReactNode } from 'react';

/** A titled block of a screen (`.app-panel`), labelled by its heading; the title may carry an action. */
export function Panel({
  title,
  titleId,
  heading: Heading = 'h2',
  children,
}: {
  title: ReactNode;
  titleId: string;
  /** `h1` when the panel is the screen itself (the member lists). */
  heading?: 'h1' | 'h2';
  children?: ReactNode;
}) {
  return (
    <section className="app-panel" aria-labelledby={titleId}>
      <Heading id={titleId} className="app-panel__title">
        {title}
      </Heading>
      {children}
    </section>
  );
}
