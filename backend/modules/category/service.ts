// What other modules may ask of the category module: counts for the dashboard, and (for
// the document and article modules) recounting after they file or unfile something, the
// categories of an item root → leaf, the categories they file under, the home page's
// top-level categories, the enabled ones (an article's neighbours are those of its category's list).
export {
  categoriesByIds,
  categoriesWithDepth,
  countCategories,
  enabledCategories,
  enabledTopCategories,
  existingCategoryIds,
  recountCategories,
} from './store';
