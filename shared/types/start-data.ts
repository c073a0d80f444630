// Wire types of start-data (docs/moredoc.md §12; conventions in ./common.ts).

import type { CallAnswer, CallFailure } from '../api-call';
import type { Category } from './category';
import type { Settings } from './config';
import type { Navigation } from './navigation';
import type { Permission } from './permission';
import type { User } from './user';

/**
 * Inlined by the gateway as `<script type="application/json" id="start-data">`
 * (docs/architecture.md, Gateway and SPA).
 */
export interface StartData {
  /** Body of `GET /api/v1/settings`. */
  settings: Settings;
  /** Flat, raw `navigation` of `GET /api/v1/navigation/list?page=1&size=10000`. */
  navigation: Navigation[];
  /** Raw `category` of `GET /api/v1/category/list`, all types. */
  categories: Category[];
  /** Only for a visitor with a valid cookie: `GET /api/v1/user`. */
  user?: User;
  /** Only for a visitor with a valid cookie: `permission` of `GET /api/v1/user/permission`. */
  permissions?: Permission[];
  /** The answers of the page's first calls (shared/routes.ts `data`), under their query keys. */
  routeData?: CallAnswer[];
  /**
   * Only for a visitor with a valid cookie, on a page with route data that the browser says another site opened (a
   * link to a search): the SPA makes the page's searches as a visitor's until the reader moves on (docs/decisions/121).
   */
  openedFromAnotherSite?: true;
  /** The page's first calls that answered that its subject does not exist (404), under their query keys. */
  routeFailures?: CallFailure[];
}
