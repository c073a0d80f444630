// The Chinese text the sources hold: every string literal, template part and JSX text with a
// Chinese character in it, read by the TypeScript parser (comments and regular expressions are
// not text a user reads).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface UiString {
  /** The file, relative to the root it was read from. */
  file: string;
  line: number;
  text: string;
}

const HAN = /\p{Script=Han}/u;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** JSX text as React renders it: lines trimmed where they break, blank ones dropped, the rest joined by a space. */
function jsxText(raw: string): string {
  const lines = raw.split(/\r\n|\n|\r/);
  return lines
    .map((line, i) => {
      const start = i > 0 ? line.trimStart() : line;
      return i < lines.length - 1 ? start.trimEnd() : start;
    })
    .filter(Boolean)
    .join(' ');
}

/** The strings of one file's source with a Chinese character in them. */
export function chineseStringsOf(file: string, source: string): UiString[] {
  const found: UiString[] = [];
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const visit = (node: ts.Node) => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node))
      text = node.text;
    else if (ts.isJsxText(node)) text = jsxText(node.text);
    if (text !== undefined && HAN.test(text))
      found.push({ file, line: tree.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

/** The Chinese strings of every TypeScript file under `folders` (paths relative to `root`). */
export function chineseStrings(root: string, folders: readonly string[]): UiString[] {
  return folders.flatMap((folder) =>
    sourceFiles(join(root, folder)).flatMap((path) =>
      chineseStringsOf(relative(root, path), readFileSync(path, 'utf8')),
    ),
  );
}
