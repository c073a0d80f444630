// The file format of a document as a small coloured badge (PDF red, Word blue, …), the way
// document sites mark their lists. White on each colour reads at 4.5:1 or more (WCAG AA).
import { extensionGroup, type ExtensionGroup } from '../../../../shared/constants';
import './document.css';

const BADGES: Partial<Record<ExtensionGroup, { text: string; color: string }>> = {
  pdf: { text: 'PDF', color: '#d03a2f' },
  word: { text: 'DOC', color: '#2b6fe0' },
  ppt: { text: 'PPT', color: '#be5614' },
  excel: { text: 'XLS', color: '#1a864e' },
  text: { text: 'TXT', color: '#667085' },
  epub: { text: 'EPUB', color: '#8a56d8' },
  mobi: { text: 'MOBI', color: '#8a56d8' },
  chm: { text: 'CHM', color: '#8a56d8' },
};

export function FormatIcon({ ext }: { ext: string | undefined }) {
  const badge = BADGES[extensionGroup(ext ?? '')];
  const text = badge?.text ?? ((ext ?? '').replace('.', '').toUpperCase() || '文档');
  return (
    <span className="app-format-icon" style={{ background: badge?.color ?? '#667085' }} title={`${text} 格式`}>
      {text}
    </span>
  );
}
