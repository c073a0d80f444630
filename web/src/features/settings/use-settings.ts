// The public settings, seeded from the start data and read by every layout and screen.
import { useSuspenseQuery } from '@tanstack/react-query';
import type { Settings } from '../../../../shared/types/config';
import { settingsQuery } from './api';

export function useSettings(): Settings {
  return useSuspenseQuery(settingsQuery()).data;
}

/** The name the site goes by: sitename, else the home title, else a neutral default. */
export function siteName(settings: Settings): string {
  return settings.system?.sitename || settings.system?.title || '文库';
}
