import { Spin } from './semi';

export function PageLoading({ tip = '正在加载…' }: { tip?: string }) {
  return (
    <div className="app-page-loading" aria-busy="true">
      <Spin size="large" tip={tip} />
    </div>
  );
}
