import { formatBytes } from '../../../../shared/format';
import { useImageUpload } from '../../kit/image-upload/use-image-upload';
import { toast } from '../../kit/toasts/toast-store';
import { Button } from '../../ui/semi';
import { mergeUser } from '../session/session-store';
import { UserAvatar } from '../session/UserMenu';
import { uploadAvatar } from '../upload/api';

const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp'];
/** The formats of AVATAR_TYPES as the member knows them, in the hint and the refusal alike. */
const AVATAR_FORMATS = ['JPG', 'PNG', 'GIF', 'WEBP', 'BMP'];
const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** Why an avatar file is refused before upload, or undefined. */
export function checkAvatarFile(file: Pick<File, 'type' | 'size'>): string | undefined {
  if (!AVATAR_TYPES.includes(file.type)) return `请上传 ${AVATAR_FORMATS.join('、')} 格式的图片`;
  if (file.size > AVATAR_MAX_BYTES) return `头像图片不能超过 ${formatBytes(AVATAR_MAX_BYTES)}`;
  return undefined;
}

/** The member's avatar, changed by uploading an image (stored on the profile at once). */
export function AvatarUpload() {
  const { uploading, choose, fileInput } = useImageUpload({
    check: checkAvatarFile,
    upload: uploadAvatar,
    failureTitle: '头像上传失败',
    onUploaded: (path) => {
      mergeUser({ avatar: path });
      toast.success('头像已更新');
    },
  });

  return (
    <div className="app-profile__avatar">
      <UserAvatar size="large" />
      <input {...fileInput} accept={AVATAR_TYPES.join(',')} aria-label="选择头像图片" />
      <Button loading={uploading} onClick={choose}>
        更换头像
      </Button>
      <span className="app-field__hint">
        支持 {AVATAR_FORMATS.join('、')}，不超过 {formatBytes(AVATAR_MAX_BYTES)}
      </span>
    </div>
  );
}
