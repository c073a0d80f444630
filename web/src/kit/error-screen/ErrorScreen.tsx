import { ERROR_SCREEN } from '../../../../shared/constants';
import { ScreenMessage } from '../../ui/ScreenMessage';
import { isBot } from '../../../../shared/bots';
import './error-screen.css';

export interface ErrorScreenProps {
  status: number;
  message?: string;
  userAgent?: string;
}

/** The root error screen of docs/product.md §2: 出错啦！, the 404 or 500 image, and a way back to /. */
export function ErrorScreen({ status, message, userAgent = navigator.userAgent }: ErrorScreenProps) {
  if (isBot(userAgent)) return null;
  return (
    <ScreenMessage
      className="app-error-screen"
      data-status={status}
      illustration={status === 404 ? 'notFound' : 'failure'}
      title={ERROR_SCREEN.title}
    >
      <p className="app-error-screen__text">{ERROR_SCREEN.description}</p>
      {message && <p className="app-error-screen__detail">{message}</p>}
      {/* a full page load: the app state that failed is not reused */}
      <a className="app-error-screen__home" href="/">
        {ERROR_SCREEN.backHome}
      </a>
    </ScreenMessage>
  );
}
