// An image field: preview, upload through `POST /api/v1/upload/<kind>`, remove. The value is
// the uploaded image's URL path, which the record stores.
import type { UploadImageReply } from '../../../../shared/types/attachment';
import type { ApiResult } from '../../api/client';
import { IconDelete, IconUpload } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { useImageUpload } from './use-image-upload';
import { UPLOAD_IMAGE_EXTENSIONS, isUploadImageExtension } from '../../../../shared/constants';
import { formatBytes } from '../../../../shared/format';

const MAX_BYTES = 10 * 1024 * 1024;

/** Why a file is refused before it is sent, or undefined. */
export function checkImageFile(file: Pick<File, 'name' | 'size'>): string | undefined {
  const ext = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (!isUploadImageExtension(ext))
    return `请上传 ${UPLOAD_IMAGE_EXTENSIONS.filter((e) => e !== 'jpeg')
      .map((e) => e.toUpperCase())
      .join('、')} 格式的图片`;
  if (file.size > MAX_BYTES) return `图片不能超过 ${formatBytes(MAX_BYTES)}`;
  return undefined;
}

/** Where an image field sends its file: the kind of its upload route, and the feature's call. */
export interface ImageUploadTarget {
  kind: string;
  upload: (file: File) => Promise<ApiResult<UploadImageReply>>;
}

export interface ImageUploadInputProps {
  id: string;
  label: string;
  target: ImageUploadTarget;
  value: string;
  onChange: (path: string) => void;
  disabled?: boolean;
}

export function ImageUploadInput({ id, label, target, value, onChange, disabled }: ImageUploadInputProps) {
  const { uploading, choose, fileInput } = useImageUpload({
    check: checkImageFile,
    upload: target.upload,
    failureTitle: '图片上传失败',
    onUploaded: onChange,
  });

  return (
    <div className="app-image-input" id={id}>
      {value ? (
        <img className="app-image-input__preview" src={value} alt={`${label}预览`} />
      ) : (
        <span className="app-image-input__placeholder">未上传</span>
      )}
      <div className="app-image-input__actions">
        <input
          {...fileInput}
          accept={UPLOAD_IMAGE_EXTENSIONS.map((e) => `.${e}`).join(',')}
          aria-label={`选择${label}图片`}
          data-upload-kind={target.kind}
        />
        <Button icon={<IconUpload />} loading={uploading} disabled={disabled} onClick={choose}>
          {value ? '重新上传' : '上传图片'}
        </Button>
        {value && !disabled && (
          <Button icon={<IconDelete />} type="danger" theme="borderless" onClick={() => onChange('')}>
            移除
          </Button>
        )}
      </div>
    </div>
  );
}
