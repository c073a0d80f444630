// The site's figures (`GET /api/v1/stats`): the home page's counts and the admin dashboard.
import { statsCall } from '../../../../shared/page-data';
import type { Stats } from '../../../../shared/types/config';
import { callQuery } from '../../api/call-query';

export type { Stats };

export const statsKeys = { all: ['stats'] as const };

export const statsQuery = () => callQuery(statsCall());
