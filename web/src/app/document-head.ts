// <title>, description, keywords and favicon follow the settings (the gateway writes the
// same into the page it serves; this keeps them right across client-side navigations).
import { useEffect } from 'react';
import type { Settings } from '../../../shared/types/config';
import type { RouteDef } from '../../../shared/routes';
import { siteName } from '../features/settings/use-settings';

export function documentTitle(settings: Settings, route: Pick<RouteDef, 'name' | 'title'> | undefined): string {
  const site = siteName(settings);
  if (!route || route.name === 'index') return settings.system?.title || site;
  return `${route.title} - ${site}`;
}

function upsertHeadElement(selector: string, create: () => HTMLElement, apply: (el: HTMLElement) => void): void {
  let element = document.head.querySelector<HTMLElement>(selector);
  if (!element) {
    element = create();
    document.head.appendChild(element);
  }
  apply(element);
}

function setMeta(name: string, content: string): void {
  upsertHeadElement(
    `meta[name="${name}"]`,
    () => Object.assign(document.createElement('meta'), { name }),
    (el) => el.setAttribute('content', content),
  );
}

export function applyDocumentHead(settings: Settings, title: string): void {
  document.title = title;
  setMeta('description', settings.system?.description ?? '');
  setMeta('keywords', settings.system?.keywords ?? '');
  const favicon = settings.system?.favicon;
  if (favicon) {
    upsertHeadElement(
      'link[rel="icon"]',
      () => Object.assign(document.createElement('link'), { rel: 'icon' }),
      (el) => el.setAttribute('href', favicon),
    );
  }
}

export function useDocumentHead(settings: Settings, title: string): void {
  useEffect(() => applyDocumentHead(settings, title), [settings, title]);
}
