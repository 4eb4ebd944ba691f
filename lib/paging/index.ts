export {
  type ArrayMember,
  arrayMemberTexts,
  entryTextsOf,
  readArrayMember,
} from './array-member-texts.js';
export { type Page, type PageFetcher, Paginator, type PagingOptions } from './paginator.js';
export { continuationRefused } from './refused-continuation.js';
