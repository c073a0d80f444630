// What other modules may ask of the report module: the count of the dashboard.
export { countReports } from './store';
