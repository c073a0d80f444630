import { QueryClient } from '@tanstack/react-query';

/** Server state lives in react-query; failures are already shown by the screens. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 60_000 },
      mutations: { retry: false },
    },
  });
}
