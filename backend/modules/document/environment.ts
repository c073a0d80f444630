import { DOCUMENT_EXTENSIONS } from '../../../shared/constants';
import type { BackendContext } from '../../platform/context';
import { externalConverterOf } from '../../platform/convert/formats';

// What `GET /api/v1/envs` reports for documents, in MOREDOC's `EnvDependent` shape: MuPDF is
// always there (the npm WebAssembly build); LibreOffice and calibre when this install has them.

export interface ConverterEnvironment {
  name: string;
  description: string;
  cmd: string;
  is_required: boolean;
  is_installed: boolean;
  version: string;
  error: string;
  checked_at: string;
}

export async function converterEnvironment(app: BackendContext): Promise<ConverterEnvironment[]> {
  const report = await app.converter.detectConverters();
  const checkedAt = new Date().toISOString();
  const external = (
    name: string,
    tool: { path: string; version: string } | undefined,
    command: string,
    description: string,
    missing: string,
  ) => ({
    name,
    description,
    cmd: tool?.path ?? command,
    is_required: false,
    is_installed: tool !== undefined,
    version: tool?.version ?? '',
    error: tool ? '' : missing,
    checked_at: checkedAt,
  });
  return [
    {
      name: 'MuPDF',
      description: '渲染 PDF、EPUB、MOBI、FB2、TXT 和图片的每一页，提取文本（内置的 npm mupdf，无需安装）',
      cmd: 'mupdf (npm)',
      is_required: true,
      is_installed: true,
      version: report.mupdf.version,
      error: '',
      checked_at: checkedAt,
    },
    external(
      'LibreOffice',
      report.libreoffice,
      'soffice',
      '将 Word、PPT、Excel、WPS、RTF 等 Office 文档转换为 PDF',
      '未找到 LibreOffice（soffice），Office 文档无法转换；可安装 libreoffice-writer-nogui 等软件包，或设置 LIBREOFFICE_PATH',
    ),
    external(
      'Calibre',
      report.calibre,
      'ebook-convert',
      '将 AZW3、AZW4、CHM 等 MuPDF 不能直接打开的电子书转换为 PDF',
      '未找到 calibre（ebook-convert），AZW3、CHM 等电子书无法转换；可安装 calibre 软件包，或设置 CALIBRE_PATH',
    ),
  ];
}

/**
 * The document extensions that convert now, lower-case without the dot: those MuPDF opens,
 * and those of LibreOffice or calibre while it is installed (looked for again every 30 s).
 */
export async function convertibleExtensions(app: BackendContext): Promise<string[]> {
  const report = await app.converter.detectConverters();
  return DOCUMENT_EXTENSIONS.filter((ext) => {
    const needs = externalConverterOf(ext);
    return needs === null || report[needs] !== undefined;
  });
}
