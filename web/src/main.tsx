import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { api } from './api/client';
import { createQueryClient } from './api/query-client';
import { AppProviders } from './app/AppProviders';
import { boot } from './app/boot';
import { createAppRouter } from './app/router';
import { handleUnauthorized } from './app/unauthorized';

async function start(): Promise<void> {
  const queryClient = createQueryClient();
  await boot(queryClient);
  const router = createAppRouter(queryClient);
  api.configure({ onUnauthorized: () => handleUnauthorized(router) });
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  createRoot(container).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

void start();
