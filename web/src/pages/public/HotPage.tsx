import { HotScreen } from '../../features/hot/HotScreen';

/** `/hot`: the 热门文档 ranking. */
export function HotPage() {
  return <HotScreen />;
}
