// `/library` and `/library/{category}`: breadcrumbs, the category's sub-categories, filters
// (format, industry, order) and paged document cards. Every choice lives in the address, so
// a reload or the back button shows the same page.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import {
  LIBRARY_ORDERS,
  LIBRARY_PAGE_SIZE,
  libraryRequest,
  libraryState,
  type LibraryState,
} from '../../../../shared/page-data';
import { Breadcrumbs } from '../../kit/breadcrumbs/Breadcrumbs';
import { ChoiceChips } from '../../kit/filters/ChoiceChips';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { PageLinks } from '../../kit/paging/PageLinks';
import { PastLastPage, isPastLastPage } from '../../kit/paging/PastLastPage';
import { useQueryValues } from '../../kit/routing/query-values';
import { EmptyState } from '../../ui/states';
import { AdSlot } from '../advertisement/AdSlot';
import { categoryTrail, useDocumentCategories, type CategoryNode } from '../category/category-tree';
import { libraryQuery } from '../document/api';
import { DocumentGrid } from '../document/DocumentCard';
import { DocumentFilterChips } from '../document/DocumentFilterChips';
import './library.css';

// The state and the list request come from shared/page-data.ts: the gateway reads the same
// address to make the first page's call for the page it serves.

/** The address of the library with `change` applied; any change but the page goes back to page 1. */
function hrefWith(basePath: string, state: LibraryState, change: Partial<LibraryState>): string {
  const next = { ...state, page: 1, ...change };
  const params = new URLSearchParams();
  if (next.ext) params.set('ext', next.ext);
  if (next.language) params.set('language', next.language);
  if (next.sort !== 'latest') params.set('sort', next.sort);
  if (next.page > 1) params.set('page', String(next.page));
  const query = params.toString();
  return query ? `${basePath}?${query}` : basePath;
}

export function LibraryScreen({ categoryId }: { categoryId?: number }) {
  const tree = useDocumentCategories();
  const state = libraryState(useQueryValues());
  const trail = categoryId ? categoryTrail(tree, categoryId) : [];
  const category: CategoryNode | undefined = trail[trail.length - 1];
  const basePath = categoryId ? `/library/${categoryId}` : '/library';
  const href = (change: Partial<LibraryState>) => hrefWith(basePath, state, change);

  const list = useQuery({
    ...libraryQuery(libraryRequest(categoryId, state)),
    enabled: !categoryId || Boolean(category),
    placeholderData: keepPreviousData,
  });

  if (categoryId && !category) {
    return (
      <div className="app-container app-panel">
        <EmptyState page title="分类不存在" description="该分类不存在或已被停用。">
          <Link to="/library">浏览全部文档</Link>
        </EmptyState>
      </div>
    );
  }

  // The sub-categories of the category, or its siblings when it has none; their 全部 is the level
  // they sit in (the category itself, its parent, or the whole library), so that the line always
  // shows a choice and leads back up, as the other lines do.
  const parent = trail[trail.length - 2];
  const showsChildren = Boolean(category && category.children.length > 0);
  const choices = category ? (showsChildren ? category.children : (parent?.children ?? tree)) : tree;
  const allOf = showsChildren ? category : parent;
  const title = category?.title ?? '文库资料';
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / LIBRARY_PAGE_SIZE));

  return (
    <div className="app-container app-library">
      <Breadcrumbs
        crumbs={[
          { label: '首页', to: '/' },
          { label: '文库资料', to: category ? '/library' : undefined },
          ...trail.map((node, index) => ({
            label: node.title ?? '',
            to: index < trail.length - 1 ? `/library/${node.id}` : undefined,
          })),
        ]}
      />
      <AdSlot slot="list_nav_bottom" />
      <section className="app-panel app-library__head" aria-labelledby="library-title">
        <h1 id="library-title" className="app-library__title">
          {title}
          {list.data && <span className="app-library__count">共 {total} 篇</span>}
        </h1>
        {category?.show_description && category.description && (
          <p className="app-library__description">{category.description}</p>
        )}
        {choices.length > 0 && (
          <ChoiceChips
            label="分类"
            choices={[
              { value: allOf ? String(allOf.id) : '', label: '全部' },
              ...choices.map((c) => ({ value: String(c.id), label: c.title ?? '' })),
            ]}
            current={category ? String(category.id) : ''}
            // Another category keeps the format, industry and order chosen (a filter like them).
            hrefFor={(value) => hrefWith(value ? `/library/${value}` : '/library', state, {})}
          />
        )}
        <DocumentFilterChips current={state} hrefFor={href} />
        <ChoiceChips
          label="排序"
          choices={LIBRARY_ORDERS.map((o) => ({ value: o.value, label: o.label }))}
          current={state.sort}
          hrefFor={(sort) => href({ sort })}
        />
      </section>
      <AdSlot slot="list_document_top" />
      <section className="app-panel" aria-label="文档列表" aria-busy={list.isFetching}>
        <QueryStates
          query={list}
          loadingRows={8}
          failure="文档列表加载失败"
          isEmpty={(data) => (data.document ?? []).length === 0}
          empty={
            isPastLastPage(state.page, total, LIBRARY_PAGE_SIZE) ? (
              <PastLastPage page={state.page} pages={pages} hrefFor={(page) => href({ page })} noun="文档" />
            ) : (
              <EmptyState
                title="暂无文档"
                description={
                  state.ext || state.language ? '没有符合条件的文档，换个筛选条件试试。' : '这里还没有文档。'
                }
              >
                {(state.ext || state.language) && <Link to={basePath}>清除筛选</Link>}
              </EmptyState>
            )
          }
        >
          {(data) => (
            <>
              <DocumentGrid documents={data.document ?? []} categoryId={categoryId} />
              <PageLinks page={state.page} pages={pages} hrefFor={(page) => href({ page })} />
            </>
          )}
        </QueryStates>
      </section>
      <AdSlot slot="list_document_bottom" />
    </div>
  );
}
