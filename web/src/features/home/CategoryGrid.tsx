import { Link } from 'react-router-dom';
import { useDocumentCategories } from '../category/category-tree';
import { useSession } from '../session/use-session';
import { useSettings } from '../settings/use-settings';
import { Panel } from '../../ui/Panel';
import { EmptyState } from '../../ui/states';

/** Top-level document categories with their sub-categories. */
export function CategoryGrid() {
  const categories = useDocumentCategories();
  const { display = {} } = useSettings();
  const { allowPages } = useSession();
  const visible = display.hide_category_without_document
    ? categories.filter((c) => (c.doc_count ?? 0) > 0)
    : categories;
  return (
    <Panel
      titleId="home-categories-title"
      title={
        <>
          文档分类
          <Link to="/library" className="app-home__more">
            全部文档
          </Link>
        </>
      }
    >
      {visible.length === 0 ? (
        <EmptyState title="暂无分类" description="管理员添加文档分类后，这里会显示分类导航。">
          {/* The site's owner, on a new site: where the categories are added. */}
          {allowPages.includes('/admin/document/category') && <Link to="/admin/document/category">添加文档分类</Link>}
        </EmptyState>
      ) : (
        <ul className="app-home__categories">
          {visible.map((category) => (
            <li key={category.id} className="app-home__category">
              <Link to={`/library/${category.id}`} className="app-home__category-title">
                {category.icon ? <img src={category.icon} alt="" className="app-home__category-icon" /> : null}
                <span>{category.title}</span>
                {display.show_document_count && <span className="app-home__count">{category.doc_count ?? 0}</span>}
              </Link>
              {category.children.length > 0 && (
                <div className="app-home__subcategories">
                  {category.children.map((child) => (
                    <Link key={child.id} to={`/library/${child.id}`}>
                      {child.title}
                    </Link>
                  ))}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
