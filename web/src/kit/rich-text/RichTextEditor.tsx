// The rich-text editor of article bodies and the VIP benefits: tiptap (ProseMirror, which
// handles Chinese input-method composition), a toolbar for what the server's allow-list keeps
// (docs/api.md §13.1), images uploaded through the caller's upload, and pasted Word HTML reduced to its
// structure (tiptap's schema has no styles; Office's conditional comments and `o:` tags go
// first). The server sanitises the HTML again whatever the editor sends.
import Image from '@tiptap/extension-image';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useRef } from 'react';
import { UPLOAD_IMAGE_EXTENSIONS } from '../../../../shared/constants';
import { checkImageFile, type ImageUploadTarget } from '../image-upload/ImageUploadInput';
import { useImageUpload } from '../image-upload/use-image-upload';
import './rich-text.css';

/** Office's markup that carries no content: conditional comments, `<o:p>`, XML islands, style blocks. */
export function cleanPastedHtml(html: string): string {
  return html
    .replace(/<!--\[if[\s\S]*?<!\[endif\]-->/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<style[\s\S]*?<\/style>/gi, '')
    .replace(/<xml[\s\S]*?<\/xml>/gi, '')
    .replace(/<\/?o:p[^>]*>/gi, '')
    .replace(/<\/?(w|m|v):[^>]*>/gi, '');
}

interface ToolbarButton {
  label: string;
  text: string;
  active?: (editor: Editor) => boolean;
  run: (editor: Editor) => void;
}

const BUTTONS: readonly ToolbarButton[] = [
  { label: '加粗', text: 'B', active: (e) => e.isActive('bold'), run: (e) => e.chain().focus().toggleBold().run() },
  { label: '斜体', text: 'I', active: (e) => e.isActive('italic'), run: (e) => e.chain().focus().toggleItalic().run() },
  {
    label: '下划线',
    text: 'U',
    active: (e) => e.isActive('underline'),
    run: (e) => e.chain().focus().toggleUnderline().run(),
  },
  {
    label: '删除线',
    text: 'S',
    active: (e) => e.isActive('strike'),
    run: (e) => e.chain().focus().toggleStrike().run(),
  },
  {
    label: '二级标题 H2',
    text: 'H2',
    active: (e) => e.isActive('heading', { level: 2 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run(),
  },
  {
    label: '三级标题 H3',
    text: 'H3',
    active: (e) => e.isActive('heading', { level: 3 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run(),
  },
  {
    label: '无序列表',
    text: '无序列表',
    active: (e) => e.isActive('bulletList'),
    run: (e) => e.chain().focus().toggleBulletList().run(),
  },
  {
    label: '有序列表',
    text: '有序列表',
    active: (e) => e.isActive('orderedList'),
    run: (e) => e.chain().focus().toggleOrderedList().run(),
  },
  {
    label: '引用',
    text: '引用',
    active: (e) => e.isActive('blockquote'),
    run: (e) => e.chain().focus().toggleBlockquote().run(),
  },
  {
    label: '代码块',
    text: '代码',
    active: (e) => e.isActive('codeBlock'),
    run: (e) => e.chain().focus().toggleCodeBlock().run(),
  },
  { label: '分割线', text: '—', run: (e) => e.chain().focus().setHorizontalRule().run() },
];

function promptLink(editor: Editor): void {
  const current = editor.getAttributes('link').href as string | undefined;
  const href = window.prompt('链接地址（http://、https:// 或站内路径 /…），留空则取消链接', current ?? 'https://');
  if (href === null) return;
  const trimmed = href.trim();
  if (!trimmed) {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    return;
  }
  if (!/^(https?:\/\/|\/(?!\/)|mailto:)/i.test(trimmed)) {
    window.alert('链接必须以 http://、https://、mailto: 或 / 开头');
    return;
  }
  editor
    .chain()
    .focus()
    .extendMarkRange('link')
    .setLink({ href: trimmed, target: /^https?:/i.test(trimmed) ? '_blank' : null })
    .run();
}

export interface RichTextEditorProps {
  id: string;
  /** The initial HTML; the editor is rebuilt when `documentKey` changes (another article loaded). */
  value: string;
  documentKey: string;
  onChange: (html: string) => void;
  /** Where inserted images go (`POST /api/v1/upload/<kind>`). */
  upload: ImageUploadTarget;
  invalid?: boolean;
  labelledBy: string;
  /** The id of the field's message while it has one (its error). */
  describedBy?: string;
}

export function RichTextEditor({
  id,
  value,
  documentKey,
  onChange,
  upload,
  invalid,
  labelledBy,
  describedBy,
}: RichTextEditorProps) {
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  const editor = useEditor(
    {
      extensions: [
        StarterKit.configure({
          heading: { levels: [2, 3, 4] },
          link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'] },
        }),
        Image.configure({ inline: false }),
      ],
      content: value,
      editorProps: {
        attributes: {
          id,
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-labelledby': labelledBy,
          'data-testid': 'rich-text-editor',
        },
        transformPastedHTML: cleanPastedHtml,
      },
      onUpdate: ({ editor: current }) => onChangeRef.current(current.isEmpty ? '' : current.getHTML()),
    },
    [documentKey],
  );
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      active: BUTTONS.map((button) => (current && button.active ? button.active(current) : false)),
      link: current?.isActive('link') ?? false,
      canUndo: current?.can().undo() ?? false,
      canRedo: current?.can().redo() ?? false,
    }),
  });
  const { uploading, choose, fileInput } = useImageUpload({
    check: checkImageFile,
    upload: upload.upload,
    failureTitle: '图片上传失败',
    onUploaded: (path) => editor?.chain().focus().setImage({ src: path, alt: '' }).run(),
  });
  useEffect(() => () => editor?.destroy(), [editor]);
  // The editable element is ProseMirror's, made once per document: its error state is set on it
  // as it changes (ProseMirror leaves alone the attributes it did not set).
  useEffect(() => {
    const field = document.getElementById(id);
    if (!field) return;
    if (invalid) field.setAttribute('aria-invalid', 'true');
    else field.removeAttribute('aria-invalid');
    if (describedBy) field.setAttribute('aria-describedby', describedBy);
    else field.removeAttribute('aria-describedby');
  }, [editor, id, invalid, describedBy]);

  return (
    <div className={`app-rich-editor${invalid ? ' app-rich-editor--invalid' : ''}`}>
      <div className="app-rich-editor__toolbar" role="toolbar" aria-label="编辑工具">
        {BUTTONS.map((button, i) => (
          <button
            key={button.label}
            type="button"
            title={button.label}
            aria-label={button.label}
            aria-pressed={button.active ? Boolean(state?.active[i]) : undefined}
            disabled={!editor}
            onClick={() => editor && button.run(editor)}
          >
            {button.text}
          </button>
        ))}
        <button
          type="button"
          title="链接"
          aria-label="链接"
          aria-pressed={state?.link ?? false}
          disabled={!editor}
          onClick={() => editor && promptLink(editor)}
        >
          链接
        </button>
        <input
          {...fileInput}
          accept={UPLOAD_IMAGE_EXTENSIONS.map((e) => `.${e}`).join(',')}
          aria-label="选择要插入的图片"
          data-upload-kind={upload.kind}
        />
        <button type="button" title="插入图片" aria-label="插入图片" disabled={!editor || uploading} onClick={choose}>
          {uploading ? '上传中…' : '图片'}
        </button>
        <button
          type="button"
          title="撤销"
          aria-label="撤销"
          disabled={!state?.canUndo}
          onClick={() => editor?.chain().focus().undo().run()}
        >
          ↶
        </button>
        <button
          type="button"
          title="重做"
          aria-label="重做"
          disabled={!state?.canRedo}
          onClick={() => editor?.chain().focus().redo().run()}
        >
          ↷
        </button>
      </div>
      <EditorContent editor={editor} className="app-rich-editor__content" />
    </div>
  );
}
