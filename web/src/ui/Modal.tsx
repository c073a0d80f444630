// Semi's Modal with its close button named in Chinese. Semi's own is a Button named "close"
// (aria-label) whatever the locale, which a `closeIcon` does not change: a modal with a title
// gets Semi's header here rebuilt (same elements and classes, the title's id that the dialog's
// aria-labelledby names) with a 关闭 button, which calls `onCancel` as Semi's does. On a short
// window its body scrolls and its buttons stay on the screen (modal.css).
import type { ComponentProps } from 'react';
import SemiModal from '@douyinfe/semi-ui-19/lib/es/modal';
import { IconClose } from './icons';
import { Button } from './semi';
import './modal.css';

const TITLE_CLASSES =
  'semi-typography semi-modal-title semi-typography-primary semi-typography-normal semi-typography-h5';

export type ModalProps = ComponentProps<typeof SemiModal>;

export function Modal({ title, closable = true, onCancel, className, ...props }: ModalProps) {
  const classes = className ? `app-modal ${className}` : 'app-modal';
  if (title === undefined || title === null || !closable || 'header' in props)
    return <SemiModal title={title} closable={closable} onCancel={onCancel} className={classes} {...props} />;
  return (
    <SemiModal
      {...props}
      className={classes}
      onCancel={onCancel}
      header={
        <div className="semi-modal-header">
          {/* Semi's Title draws an <h5> whatever `component` says: after the page's <h1> a dialog's title is
              the next level down, an <h2> (axe's heading-order), drawn as Semi's h5. */}
          <h2 className={TITLE_CLASSES} id="semi-modal-title">
            {title}
          </h2>
          <Button
            aria-label="关闭"
            className="semi-modal-close"
            type="tertiary"
            theme="borderless"
            size="small"
            icon={<IconClose />}
            disabled={!onCancel}
            onClick={(event) => void onCancel?.(event)}
          />
        </div>
      }
    />
  );
}
