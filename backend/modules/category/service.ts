// What other modules may ask of the category module: counts for the dashboard, and (for
// the document and article modules) the categories they file under and recounting after
// they file or unfile something.
export { categoriesByIds, countCategories, recountCategories } from './store';
