import { Suspense, useState } from 'react';
import { lazy } from '../../ui/lazy';
import { Link, useLocation } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import { IconAlertTriangle } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { useSession } from '../session/use-session';
import './report.css';

const ReportDialog = lazy(async () => ({ default: (await import('./ReportDialog')).ReportDialog }));

/** 举报 for a document (type 0) or an article (type 1); visitors are sent to log in first. */
export function ReportButton({ type, targetId, title }: { type: number; targetId: number; title: string }) {
  const { loggedIn } = useSession();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  if (!loggedIn) {
    return (
      <Link className="app-report__login" to={loginLocation(location.pathname + location.search)} title="登录后举报">
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
