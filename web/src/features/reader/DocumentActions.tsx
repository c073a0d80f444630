// What a reader can do with a document besides reading and downloading it: keep it as a
// favourite, share its link, report it (docs/product.md §9 reasons). Members only; visitors are
// offered the login.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import { loginReasonState } from '../auth/login-reason';
import { COPYRIGHT_REPORT_HINT, COPYRIGHT_REPORT_REASON, reportReasonOptions } from '../../../../shared/constants';
import type { Document } from '../../../../shared/types/document';
import { REPORT_REMARK_MAX_LENGTH, reportRemarkProblems } from '../../../../shared/validation';
import { unwrap } from '../../api/client';
import { useOneAtATime } from '../../api/one-at-a-time';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { CopyLinkButton } from '../../kit/share/ShareLink';
import { Button } from '../../ui/semi';
import { addFavorite, favoriteOfDocumentQuery, removeFavorites } from '../favorite/api';
import { reportDocument } from '../report/api';
import { useSession } from '../session/use-session';

function FavoriteButton({ doc }: { doc: Document }) {
  const id = doc.id ?? 0;
  const favorite = useQuery(favoriteOfDocumentQuery(id));
  const favoriteId = favorite.data?.id;
  // The favourite being removed is the mutation's variable: by the time it settles, the
  // refetched state says the opposite of what was done.
  const toggle = useMutation({
    mutationFn: async (removing: number | undefined, context) => {
      if (removing) unwrap(await removeFavorites([removing], context, id));
      else unwrap(await addFavorite(id, context));
    },
    onSuccess: (_, removing) => toast.success(removing ? '已取消收藏' : '收藏成功'),
    onError: (error, removing) => toastFailure(removing ? '取消收藏失败' : '收藏失败', error),
  });
  // One toggle at a time: a double tap would favourite again or remove what is already gone.
  const toggleOnce = useOneAtATime(toggle);
  const start = () => toggleOnce(favoriteId);
  return (
    <Button
      onClick={start}
      loading={toggle.isPending || favorite.isPending}
      aria-pressed={Boolean(favoriteId)}
      type={favoriteId ? 'warning' : 'tertiary'}
    >
      {/* The star is what aria-pressed says: read aloud, it came first as "white star 收藏". */}
      <span aria-hidden="true">{favoriteId ? '★' : '☆'}</span> {favoriteId ? '已收藏' : '收藏'}
    </Button>
  );
}

function ReportForm({ id, doc, onDone }: { id: string; doc: Document; onDone: () => void }) {
  const [reason, setReason] = useState<number>();
  const [remark, setRemark] = useState('');
  const [error, setError] = useState<string>();
  const { ref, focusFirstInvalid } = useFirstInvalidFocus();
  const messageId = `${id}-message`;
  // The message belongs to the reasons until one is chosen, then to the remark it is about.
  const reasonInvalid = Boolean(error) && reason === undefined;
  const remarkInvalid = Boolean(error) && reason !== undefined;
  const report = useMutation({
    mutationFn: async () =>
      unwrap(await reportDocument({ document_id: doc.id, reason, document_title: doc.title, remark: remark.trim() })),
    onSuccess: () => {
      toast.success('举报成功', '感谢您的反馈，我们会尽快处理');
      onDone();
    },
    onError: (failure) => toastFailure('举报失败', failure),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = reason === undefined ? '请选择举报原因' : reportRemarkProblems(remark.trim(), reason)[0];
    setError(problem);
    if (problem) focusFirstInvalid();
    else report.mutate();
  };
  return (
    <form ref={ref} id={id} className="app-report" onSubmit={submit} aria-label="举报文档" noValidate>
      <fieldset className="app-report__reasons" aria-describedby={reasonInvalid ? messageId : undefined}>
        <legend>举报原因</legend>
        {reportReasonOptions.map((option) => (
          <label key={option.value}>
            <input
              type="radio"
              name="reason"
              value={option.value}
              checked={reason === option.value}
              aria-invalid={reasonInvalid || undefined}
              onChange={() => {
                setReason(option.value);
                setError(undefined);
              }}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <label className="app-report__remark">
        {reason === COPYRIGHT_REPORT_REASON ? '补充说明' : '补充说明（选填）'}
        <textarea
          value={remark}
          rows={3}
          maxLength={REPORT_REMARK_MAX_LENGTH}
          placeholder={reason === COPYRIGHT_REPORT_REASON ? COPYRIGHT_REPORT_HINT : undefined}
          onChange={(event) => {
            setRemark(event.target.value);
            if (remarkInvalid) setError(undefined);
          }}
          aria-invalid={remarkInvalid || undefined}
          aria-describedby={remarkInvalid ? messageId : undefined}
        />
      </label>
      {error && (
        <p id={messageId} className="app-field__error" role="alert">
          {error}
        </p>
      )}
      <div className="app-form-actions">
        <Button htmlType="submit" type="danger" theme="solid" loading={report.isPending}>
          提交举报
        </Button>
        <Button onClick={onDone}>取消</Button>
      </div>
    </form>
  );
}

export function DocumentActions({ doc, path }: { doc: Document; path: string }) {
  const { loggedIn } = useSession();
  const { pathname, search } = useLocation();
  const [reporting, setReporting] = useState(false);
  const reportId = useId();
  // The form closed (取消, or sent): the keyboard goes back to 举报, not to the page's top.
  const closeReport = () => {
    setReporting(false);
    document.getElementById(`${reportId}-opener`)?.focus();
  };
  // Escape closes the form as 取消 does (the keyboard back on 举报), from the form or from 举报,
  // which keeps the keyboard once it has opened the form.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !reporting) return;
    event.preventDefault();
    closeReport();
  };
  return (
    <div className="app-doc-actions" onKeyDown={onKeyDown}>
      <div className="app-doc-actions__buttons">
        {loggedIn ? (
          <>
            <FavoriteButton doc={doc} />
            {/* 举报 last, right before the form it opens: Tab from it goes into the form. */}
            <CopyLinkButton path={path} label="分享" />
            <Button
              id={`${reportId}-opener`}
              type="tertiary"
              onClick={() => setReporting((open) => !open)}
              aria-expanded={reporting}
              aria-controls={reporting ? reportId : undefined}
            >
              举报
            </Button>
          </>
        ) : (
          <>
            <Link
              state={loginReasonState('favorite')}
              to={loginLocation(pathname + search)}
              className="app-doc-actions__login"
            >
              登录后收藏或举报
            </Link>
            <CopyLinkButton path={path} label="分享" />
          </>
        )}
      </div>
      {reporting && <ReportForm id={reportId} doc={doc} onDone={closeReport} />}
    </div>
  );
}
