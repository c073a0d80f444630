import type { ReactNode } from 'react';
import { LocaleProvider } from './semi';
import zhCN from '@douyinfe/semi-ui-19/lib/es/locale/source/zh_CN';

/** Semi in Chinese (its default, made explicit; also localises static Modal.confirm). */
export function UiProvider({ children }: { children: ReactNode }) {
  return <LocaleProvider locale={zhCN}>{children}</LocaleProvider>;
}
