import { useParams } from 'react-router-dom';
import { ArticleView } from '../../features/article/ArticleView';
import { FeedbackForm } from '../../features/feedback/FeedbackForm';

/** The identifier of the footer's 意见反馈 page, which carries the feedback form. */
const FEEDBACK_PAGE = 'feedback';

/** One article by id or identifier; the 意见反馈 page adds the form. */
export function ArticleReader({ articleKey, categoryId }: { articleKey: string; categoryId?: number }) {
  return (
    <div className="app-container">
      <div className="app-article-reading">
        <ArticleView articleKey={articleKey} categoryId={categoryId}>
          {articleKey === FEEDBACK_PAGE && (
            <section className="app-article__extra" aria-labelledby="feedback-form-title">
              <h2 id="feedback-form-title">填写反馈</h2>
              <FeedbackForm />
            </section>
          )}
        </ArticleView>
      </div>
    </div>
  );
}

/** `/article/{category?}/detail/{id}`: `id` is an article id or identifier. */
export function ArticleDetailPage() {
  const { category, id = '' } = useParams();
  return <ArticleReader key={id} articleKey={id} categoryId={category ? Number(category) : undefined} />;
}
