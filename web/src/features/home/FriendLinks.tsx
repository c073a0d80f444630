import { useQuery } from '@tanstack/react-query';
import { friendlinksQuery } from '../../api/friendlink';

/** Friend links of the backend; the section is left out when there are none. */
export function FriendLinks() {
  const { data: links, isSuccess } = useQuery(friendlinksQuery());
  if (!isSuccess || links.length === 0) return null;
  return (
    <section className="app-panel" aria-labelledby="home-friendlinks-title">
      <h2 id="home-friendlinks-title" className="app-panel__title">
        友情链接
      </h2>
      <ul className="app-home__friendlinks">
        {links.map((link) => (
          <li key={link.id}>
            <a href={link.link} target="_blank" rel="noopener noreferrer">
              {link.title}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
