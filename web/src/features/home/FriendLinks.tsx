import { useQuery } from '@tanstack/react-query';
import { friendlinksQuery } from '../friendlink/api';
import { Panel } from '../../ui/Panel';

/** Friend links of the backend; the section is left out when there are none. */
export function FriendLinks() {
  const { data: links, isSuccess } = useQuery(friendlinksQuery());
  if (!isSuccess || links.length === 0) return null;
  return (
    <Panel title="友情链接" titleId="home-friendlinks-title">
      <ul className="app-home__friendlinks">
        {links.map((link) => (
          <li key={link.id}>
            <a href={link.link} target="_blank" rel="noopener noreferrer">
              {link.title}
            </a>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
