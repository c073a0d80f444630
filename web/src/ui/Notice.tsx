// A notice in a band (Semi's Banner): not to be closed unless `onClose` is given, and then by a
// button named in Chinese. Semi's own close button is named "Close" whatever the locale, and its
// icon of the type "info", "warning"…: ours is named 提示, 警告, 错误 or 成功.
import type { ReactNode } from 'react';
import { Banner } from './semi-extra';
import { IconAlertCircle, IconAlertTriangle, IconClose, IconInfoCircle, IconTickCircle } from './icons';
import './notice.css';

export interface NoticeProps {
  type: 'info' | 'warning' | 'danger' | 'success';
  description: ReactNode;
  /** a band across the page (no radius, no border) rather than a box in the content */
  fullMode?: boolean;
  /** given: a 关闭提示 button that calls it */
  onClose?: () => void;
}

const ICONS: Record<NoticeProps['type'], ReactNode> = {
  info: <IconInfoCircle size="large" aria-label="提示" />,
  warning: <IconAlertTriangle size="large" aria-label="警告" />,
  danger: <IconAlertCircle size="large" aria-label="错误" />,
  success: <IconTickCircle size="large" aria-label="成功" />,
};

export function Notice({ type, description, fullMode = false, onClose }: NoticeProps) {
  const banner = (
    <Banner
      type={type}
      fullMode={fullMode}
      bordered={false}
      icon={ICONS[type]}
      description={description}
      closeIcon={null}
    />
  );
  if (!onClose) return banner;
  return (
    <div className="app-notice">
      {banner}
      <button type="button" className="app-notice__close" aria-label="关闭提示" onClick={onClose}>
        <IconClose />
      </button>
    </div>
  );
}
