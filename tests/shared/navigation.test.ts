import { describe, expect, it } from 'vitest';
import { buildNavigationTree, type NavigationNode } from '../../shared/navigation';
import type { Navigation } from '../../shared/types/navigation';

const titles = (nodes: NavigationNode[]): unknown[] =>
  nodes.map((n) => (n.children.length > 0 ? [n.title, titles(n.children)] : n.title));

// The default navigation of a fresh MOREDOC (docs/moredoc.md §11).
const home: Navigation = { id: 1, title: '首页', href: '/', target: '_self', sort: 102400, enable: true, fixed: true };
const docs: Navigation = {
  id: 2,
  title: '文库资料',
  href: '/category',
  target: '_self',
  sort: 102300,
  enable: true,
  fixed: true,
};
const articles: Navigation = {
  id: 3,
  title: '文章资讯',
  href: '/article',
  target: '_self',
  sort: 102200,
  enable: true,
  fixed: true,
};

describe('buildNavigationTree', () => {
  it('orders items by sort, higher first, then by id', () => {
    const tie: Navigation = { id: 4, title: '帮助', sort: 102300, enable: true };
    expect(titles(buildNavigationTree([articles, tie, home, docs]))).toEqual(['首页', '文库资料', '帮助', '文章资讯']);
  });

  it('nests children under their parent, each level sorted', () => {
    const tree = buildNavigationTree([
      home,
      docs,
      { id: 10, parent_id: 2, title: '教育', sort: 1, enable: true },
      { id: 11, parent_id: 2, title: '技术', sort: 5, enable: true },
      { id: 12, parent_id: 11, title: '前端', enable: true },
    ]);
    expect(titles(tree)).toEqual(['首页', ['文库资料', [['技术', ['前端']], '教育']]]);
    expect(tree[1]).toMatchObject({ id: 2, href: '/category', fixed: true });
  });

  it('keeps only enabled items; an omitted enable is false', () => {
    expect(
      titles(buildNavigationTree([home, { id: 5, title: '隐藏', enable: false }, { id: 6, title: '未设置' }])),
    ).toEqual(['首页']);
  });

  it('hides the whole subtree of a disabled parent', () => {
    const tree = buildNavigationTree([
      home,
      { id: 20, title: '专题', enable: false },
      { id: 21, parent_id: 20, title: '子项', enable: true },
      { id: 22, parent_id: 21, title: '孙项', enable: true },
    ]);
    expect(titles(tree)).toEqual(['首页']);
  });

  it('shows orphans and self-parented items at the top level', () => {
    const tree = buildNavigationTree([
      home,
      { id: 30, parent_id: 999, title: '孤儿', sort: 1, enable: true },
      { id: 31, parent_id: 31, title: '自指', enable: true },
    ]);
    expect(titles(tree)).toEqual(['首页', '孤儿', '自指']);
  });

  it('drops items caught in a parent cycle and repeated ids', () => {
    const tree = buildNavigationTree([
      home,
      { id: 40, parent_id: 41, title: '循环甲', enable: true },
      { id: 41, parent_id: 40, title: '循环乙', enable: true },
      { ...home, title: '重复' },
    ]);
    expect(titles(tree)).toEqual(['首页']);
  });

  it('replaces children sent by the server with the built ones and leaves the input untouched', () => {
    const parent = { id: 50, title: '父', enable: true, children: [{ id: 99, title: '旧' }] };
    const child: Navigation = { id: 51, parent_id: 50, title: '子', enable: true };
    const tree = buildNavigationTree([parent, child]);
    expect(titles(tree)).toEqual([['父', ['子']]]);
    expect(parent.children).toEqual([{ id: 99, title: '旧' }]);
  });

  it('returns an empty tree for an empty list', () => {
    expect(buildNavigationTree([])).toEqual([]);
  });
});
