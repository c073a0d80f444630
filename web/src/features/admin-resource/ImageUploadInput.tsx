// An image field: preview, upload through `POST /api/v1/upload/<kind>`, remove. The value is
// the uploaded image's URL path, which the record stores.
import { useRef, useState, type ChangeEvent } from 'react';
import { uploadImage, type ImageUploadKind } from '../../api/upload';
import { IconDelete, IconUpload } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { toastFailure } from '../toasts/failure-toast';
import { toast } from '../toasts/toast-store';

/** What the upload routes accept (contract README §8.2). */
const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp', 'ico'];
const MAX_BYTES = 10 * 1024 * 1024;

/** Why a file is refused before it is sent, or undefined. */
export function checkImageFile(file: Pick<File, 'name' | 'size'>): string | undefined {
  const ext = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (!IMAGE_EXTENSIONS.includes(ext)) return '请上传 JPG、PNG、GIF、WEBP、BMP 或 ICO 格式的图片';
  if (file.size > MAX_BYTES) return '图片不能超过 10 MB';
  return undefined;
}

export interface ImageUploadInputProps {
  id: string;
  label: string;
  kind: ImageUploadKind;
  value: string;
  onChange: (path: string) => void;
  disabled?: boolean;
}

export function ImageUploadInput({ id, label, kind, value, onChange, disabled }: ImageUploadInputProps) {
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = checkImageFile(file);
    if (problem) {
      toast.error('图片上传失败', problem);
      return;
    }
    setUploading(true);
    const result = await uploadImage(kind, file);
    setUploading(false);
    const path = result.ok ? result.data.data?.path : undefined;
    if (!path) {
      toastFailure('图片上传失败', result.ok ? undefined : result);
      return;
    }
    onChange(path);
  };

  return (
    <div className="app-image-input" id={id}>
      {value ? (
        <img className="app-image-input__preview" src={value} alt={`${label}预览`} />
      ) : (
        <span className="app-image-input__placeholder">未上传</span>
      )}
      <div className="app-image-input__actions">
        <input
          ref={input}
          type="file"
          accept={IMAGE_EXTENSIONS.map((e) => `.${e}`).join(',')}
          hidden
          onChange={(e) => void onFile(e)}
          aria-label={`选择${label}图片`}
          data-upload-kind={kind}
        />
        <Button icon={<IconUpload />} loading={uploading} disabled={disabled} onClick={() => input.current?.click()}>
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
