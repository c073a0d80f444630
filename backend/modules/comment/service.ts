// What other modules may ask of the comment module: removing the comments of items that are
// deleted for good, and the count of the dashboard.
export { countComments, deleteCommentsOn } from './store';
