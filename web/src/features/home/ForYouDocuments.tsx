// 猜你喜欢 on the home page: for a signed-in member, documents of the categories they read and
// favourite that they have not read yet (the server's rule, docs/api.md). Nothing for visitors,
// nor while there is nothing to offer.
import { useQuery } from '@tanstack/react-query';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Panel } from '../../ui/Panel';
import { documentsForYouQuery } from '../document/api';
import { DocumentGrid } from '../document/DocumentCard';
import { useSession } from '../session/use-session';

export function ForYouDocuments() {
  const { loggedIn, user } = useSession();
  const userId = user?.id ?? 0;
  const forYou = useQuery({ ...documentsForYouQuery(userId), enabled: loggedIn && userId > 0 });
  if (!loggedIn || !userId || (forYou.isSuccess && forYou.data.length === 0)) return null;
  return (
    <Panel title="猜你喜欢" titleId="home-for-you-title">
      <QueryStates query={forYou} loadingRows={3} failure="猜你喜欢加载失败">
        {(documents) => <DocumentGrid documents={documents} />}
      </QueryStates>
    </Panel>
  );
}
