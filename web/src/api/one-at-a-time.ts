import { useRef } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';

/**
 * Starts the mutation unless the one started before has not settled: the second tap of a double
 * tap comes before the button shows it is busy (nothing has rendered yet), and would send the
 * request again (a second download counted against the limits, a second payment, 您已经收藏过了).
 */
export function useOneAtATime<TVariables>(
  mutation: UseMutationResult<unknown, Error, TVariables, unknown>,
): (variables: TVariables) => void {
  const running = useRef(false);
  return (variables) => {
    if (running.current) return;
    running.current = true;
    mutation.mutate(variables, {
      onSettled: () => {
        running.current = false;
      },
    });
  };
}
