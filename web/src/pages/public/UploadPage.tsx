import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { errorMessage } from '../../api/client';
import { useSession } from '../../features/session/use-session';
import { uploadRightQuery } from '../../features/upload/api';
import { DocumentUploader } from '../../features/document/DocumentUploader';
import { Skeleton } from '../../ui/semi';
import { EmptyState, ErrorState } from '../../ui/states';
import './upload-page.css';

/** `/upload`: the member's upload, once the server confirms the upload right. */
export function UploadPage() {
  const { user } = useSession();
  const userId = user?.id ?? 0;
  const right = useQuery(uploadRightQuery(userId));
  return (
    <div className="app-container">
      <h1 className="app-upload-page__title">上传文档</h1>
      {right.isPending ? (
        <div className="app-panel">
          <Skeleton.Paragraph rows={3} />
        </div>
      ) : right.isError ? (
        <div className="app-panel">
          <ErrorState message={errorMessage(right.error, '上传权限查询失败')} onRetry={() => void right.refetch()} />
        </div>
      ) : right.data.allowed ? (
        <DocumentUploader userId={userId} />
      ) : (
        <div className="app-panel">
          <EmptyState title="暂时不能上传文档" description={right.data.reason || '您没有上传文档的权限'}>
            <Link to="/member">返回个人中心</Link>
          </EmptyState>
        </div>
      )}
    </div>
  );
}
