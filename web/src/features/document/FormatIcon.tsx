// The file format of a document as a small coloured badge (PDF red, Word blue, …), the way
// document sites mark their lists.
import { extensionGroup, type ExtensionGroup } from '../../../../shared/constants';
import './document.css';

const BADGES: Partial<Record<ExtensionGroup, { text: string; color: string }>> = {
  pdf: { text: 'PDF', color: '#e5483e' },
  word: { text: 'DOC', color: '#2b6fe0' },
  ppt: { text: 'PPT', color: '#e8742a' },
  excel: { text: 'XLS', color: '#1e9b5b' },
  text: { text: 'TXT', color: '#7a8599' },
  epub: { text: 'EPUB', color: '#8a56d8' },
  mobi: { text: 'MOBI', color: '#8a56d8' },
  chm: { text: 'CHM', color: '#8a56d8' },
};

export function FormatIcon({ ext }: { ext: string | undefined }) {
  const badge = BADGES[extensionGroup(ext ?? '')];
  const text = badge?.text ?? ((ext ?? '').replace('.', '').toUpperCase() || '文档');
  return (
    <span className="app-format-icon" style={{ background: badge?.color ?? '#7a8599' }} title={`${text} 格式`}>
      {text}
    </span>
  );
}
