// What other modules may ask of the category module: counts for the dashboard, and (for
// the document and article modules) recounting after they file or unfile something.
export { countCategories, recountCategories } from './store';
