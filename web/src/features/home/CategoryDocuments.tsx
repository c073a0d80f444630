// The home page's library: for each top-level category, its latest converted documents (the
// home listing call), with covers.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Panel } from '../../ui/Panel';
import { homeDocumentsQuery } from '../document/api';
import { DocumentGrid } from '../document/DocumentCard';

export function CategoryDocuments() {
  const home = useQuery(homeDocumentsQuery());
  return (
    <QueryStates
      query={home}
      loadingRows={6}
      failure="分类文档加载失败"
      isEmpty={(groups) => groups.every((group) => (group.document ?? []).length === 0)}
      empty={null}
    >
      {(groups) => (
        <>
          {groups
            .filter((group) => (group.document ?? []).length > 0)
            .map((group) => (
              <Panel
                key={group.category_id}
                titleId={`home-category-${group.category_id}`}
                title={
                  <>
                    {group.category_name}
                    <Link to={`/library/${group.category_id}`} className="app-home__more">
                      更多
                    </Link>
                  </>
                }
              >
                <DocumentGrid documents={group.document ?? []} categoryId={group.category_id} />
              </Panel>
            ))}
        </>
      )}
    </QueryStates>
  );
}
