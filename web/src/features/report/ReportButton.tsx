import { Suspense, useState } from 'react';
import { lazy } from '../../ui/lazy';
import { Link, useLocation } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import { ReportType } from '../../../../shared/constants';
import { loginReasonState, type LoginReason } from '../auth/login-reason';
import { IconAlertTriangle } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { useSession } from '../session/use-session';
import './report.css';

const ReportDialog = lazy(async () => ({ default: (await import('./ReportDialog')).ReportDialog }));

/** What the login page says to a visitor sent by the 举报 of an article or a comment (the reader has its own link). */
const LOGIN_REASON_OF_TYPE: Readonly<Partial<Record<number, LoginReason>>> = {
  [ReportType.Article]: 'reportArticle',
  [ReportType.Comment]: 'reportComment',
};

/** 举报 for a document (type 0), an article (type 1) or a comment (type 2); visitors are sent to log in first. */
export function ReportButton({ type, targetId, title }: { type: number; targetId: number; title: string }) {
  const { loggedIn } = useSession();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  if (!loggedIn) {
    const reason = LOGIN_REASON_OF_TYPE[type];
    return (
      <Link
        className="app-report__login"
        to={loginLocation(location.pathname + location.search)}
        state={reason && loginReasonState(reason)}
        title="登录后举报"
      >
        <IconAlertTriangle /> 举报
      </Link>
    );
  }
  return (
    <>
      <Button
        theme="borderless"
        type="tertiary"
        icon={<IconAlertTriangle />}
        aria-label="举报"
        onClick={() => setOpen(true)}
      >
        举报
      </Button>
      {open && (
        <Suspense fallback={null}>
          <ReportDialog type={type} targetId={targetId} title={title} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
