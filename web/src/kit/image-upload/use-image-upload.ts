// Picking an image file and uploading it, for the admin's image fields and the member's
// avatar: a hidden file input opened by a button, the file checked before it is sent, a
// failure toast (one at a time, gone once an image is uploaded), and the uploaded image's URL
// path handed on.
import { useRef, useState, type ChangeEvent } from 'react';
import type { UploadImageReply } from '../../../../shared/types/attachment';
import type { ApiResult } from '../../api/client';
import { retireFailure, toastFailure, toastRefusal } from '../toasts/failure-toast';

export interface ImageUploadOptions {
  /** Why a file is refused before it is sent, or undefined. */
  check: (file: File) => string | undefined;
  upload: (file: File) => Promise<ApiResult<UploadImageReply>>;
  /** The toast title of a refused or failed upload, e.g. '头像上传失败'. */
  failureTitle: string;
  onUploaded: (path: string) => void;
}

export function useImageUpload({ check, upload, failureTitle, onUploaded }: ImageUploadOptions) {
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = check(file);
    if (problem) {
      toastRefusal(failureTitle, problem);
      return;
    }
    setUploading(true);
    const result = await upload(file);
    setUploading(false);
    const path = result.ok ? result.data.data?.path : undefined;
    if (!path) {
      toastFailure(failureTitle, result.ok ? undefined : result);
      return;
    }
    retireFailure(failureTitle);
    onUploaded(path);
  };

  return {
    uploading,
    /** Opens the file chooser. */
    choose: () => input.current?.click(),
    /** Spread on the hidden `<input type="file">`. */
    fileInput: {
      ref: input,
      type: 'file',
      hidden: true,
      onChange: (event: ChangeEvent<HTMLInputElement>) => void onFile(event),
    },
  };
}
