import { useSuspenseQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { buildNavigationTree, type NavigationNode } from '../../../../shared/navigation';
import { navigationListQuery } from './api';

/** The public header's navigation as a tree (seeded from the start data). */
export function useNavigationTree(): NavigationNode[] {
  const { data } = useSuspenseQuery(navigationListQuery());
  return useMemo(() => buildNavigationTree(data), [data]);
}
