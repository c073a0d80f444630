// Loading, empty and error states shared by every screen.
import type { ReactNode } from 'react';
import { Button } from './semi';
import { Illustration, type IllustrationName } from './illustrations';
import './states.css';

/**
 * `page`: the state is the whole screen (what was asked for does not exist): its title is the page's h1.
 * `illustration`: `noResult` (an empty box) where nothing can be added from here, not the default's +.
 */
export function EmptyState({
  title = '暂无数据',
  description,
  children,
  page = false,
  illustration = 'noContent',
}: {
  title?: string;
  description?: ReactNode;
  children?: ReactNode;
  page?: boolean;
  illustration?: Extract<IllustrationName, 'noContent' | 'noResult'>;
}) {
  const Title = page ? 'h1' : 'p';
  return (
    <div className="app-state" role="status">
      <Illustration name={illustration} className="app-state__image" />
      <Title className="app-state__title">{title}</Title>
      {description && <p className="app-state__description">{description}</p>}
      {children}
    </div>
  );
}

/** Where a list would show its empty state while its first page is still coming. */
export function LoadingState({ title = '正在加载…' }: { title?: string }) {
  return (
    <div className="app-state app-state--loading" role="status" aria-busy="true">
      <p className="app-state__title">{title}</p>
    </div>
  );
}

export function ErrorState({ message, onRetry }: { message?: string; onRetry?: () => void }) {
  return (
    <div className="app-state" role="alert">
      <Illustration name="failure" className="app-state__image" />
      <p className="app-state__title">加载失败</p>
      {message && <p className="app-state__description">{message}</p>}
      {onRetry && <Button onClick={onRetry}>重试</Button>}
    </div>
  );
}
