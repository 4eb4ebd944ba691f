export { type Page, type PageFetcher, Paginator, type PagingOptions } from './paginator.js';
