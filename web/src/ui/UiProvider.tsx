import { useEffect, type ReactNode } from 'react';
import { LocaleProvider } from './semi';
import zhCN from '@douyinfe/semi-ui-19/lib/es/locale/source/zh_CN';
import { keepSemiNamesChinese } from './semi-names';

/**
 * Semi in Chinese (its default, made explicit; also localises static Modal.confirm), and the names
 * it writes in English whatever the locale rewritten (semi-names.ts).
 */
export function UiProvider({ children }: { children: ReactNode }) {
  useEffect(() => keepSemiNamesChinese(document.body), []);
  return <LocaleProvider locale={zhCN}>{children}</LocaleProvider>;
}
