// What the config form tests share: the permission that opens the config screens, a backend
// answering ListConfig with the rows of each category and taking every PUT, and the PUTs sent.
import type { Config } from '../../shared/types/config';
import type { Permission } from '../../shared/types/permission';
import type { Backend, renderApp } from './render-app';

export const configPermissions: Permission[] = [
  { id: 2, method: 'GRPC', path: '/api.v1.ConfigAPI/ListConfig', title: '获取系统配置列表' },
];

/** `GET /api/v1/config/list?category=…` answers `rows[category]`; `PUT /api/v1/config` succeeds. */
export function configBackend(rows: Record<string, Config[]>): Backend {
  return {
    'GET /api/v1/config/list': (url) => ({
      status: 200,
      body: { config: rows[url.searchParams.get('category') ?? ''] ?? [] },
    }),
    'PUT /api/v1/config': { status: 200, body: {} },
  };
}

/** The `PUT /api/v1/config` calls made so far. */
export const configPuts = (fetchMock: ReturnType<typeof renderApp>['fetchMock']) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => init?.method === 'PUT' && new URL(String(url), 'http://localhost').pathname === '/api/v1/config',
  );
