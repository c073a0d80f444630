// Start data (docs/architecture.md, Gateway and SPA): the gateway inlines settings,
// navigation, categories and, for a logged-in visitor, the user and permissions as
// `#start-data`, so the first screen needs no API call. Only when it is absent (Vite dev
// server) does the SPA load the same itself.
import type { Settings } from '../../../shared/types/config';
import type { StartData } from '../../../shared/types/start-data';
import { fetchCategoryList } from '../features/category/api';
import { fetchNavigationList } from '../features/navigation/api';
import { fetchSettings } from '../features/settings/api';
import { userApi } from '../features/user/api';

export const EMPTY_SETTINGS: Settings = { system: {}, footer: {}, security: {}, display: {} };

function isStartData(value: unknown): value is StartData {
  const v = value as Partial<StartData> | null;
  return typeof v === 'object' && v !== null && typeof v.settings === 'object' && v.settings !== null;
}

/** The inlined start data, or null when the page has none (or it is unreadable). */
export function readStartData(doc: Document = document): StartData | null {
  const node = doc.getElementById('start-data');
  if (!node?.textContent) return null;
  try {
    const parsed: unknown = JSON.parse(node.textContent);
    if (!isStartData(parsed)) return null;
    return {
      ...parsed,
      navigation: Array.isArray(parsed.navigation) ? parsed.navigation : [],
      categories: Array.isArray(parsed.categories) ? parsed.categories : [],
      routeData: Array.isArray(parsed.routeData) ? parsed.routeData.filter((answer) => Array.isArray(answer?.key)) : [],
      routeFailures: Array.isArray(parsed.routeFailures)
        ? parsed.routeFailures.filter(
            (failed) =>
              Array.isArray(failed?.key) &&
              typeof failed.failure?.status === 'number' &&
              typeof failed.failure.data?.message === 'string',
          )
        : [],
    };
  } catch {
    return null;
  }
}

/** docs/product.md §2: settings, navigation, current user and categories, before the first render. */
export async function loadStartData(): Promise<StartData> {
  const [settings, navigation, categories, user] = await Promise.all([
    fetchSettings(),
    fetchNavigationList(),
    fetchCategoryList(),
    userApi.current({ probe: true }),
  ]);
  const data: StartData = {
    settings: settings.ok ? settings.data : EMPTY_SETTINGS,
    navigation: navigation.ok ? (navigation.data.navigation ?? []) : [],
    categories: categories.ok ? (categories.data.category ?? []) : [],
  };
  if (user.ok && user.data.id) {
    const permissions = await userApi.permissions({ probe: true });
    data.user = user.data;
    data.permissions = permissions.ok ? (permissions.data.permission ?? []) : [];
  }
  return data;
}
