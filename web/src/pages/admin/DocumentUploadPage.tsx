import { useSession } from '../../features/session/use-session';
import { DocumentUploader } from '../../features/document/DocumentUploader';

/** `/admin/document/upload`: batch upload with one category and price for all, then each file's conversion. */
export function DocumentUploadPage() {
  const { user } = useSession();
  return (
    <div>
      <h1 className="app-admin-page__title">上传文档</h1>
      <DocumentUploader userId={user?.id ?? 0} />
    </div>
  );
}
