// Answers asked for before the app's code ran (src/early.ts), by URL. The HTTP client takes
// each over once, for the same GET, instead of asking the server again.
export const EARLY_RESPONSES = '__moredocEarlyResponses';

export type EarlyResponses = Record<string, Promise<Response>>;

export function takeEarlyResponse(url: string): Promise<Response> | undefined {
  const store = (globalThis as unknown as Record<string, EarlyResponses | undefined>)[EARLY_RESPONSES];
  const response = store?.[url];
  if (store && response) delete store[url];
  return response;
}
