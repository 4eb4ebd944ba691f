export {
  type ArrayMember,
  arrayMemberTexts,
  entryTextsOf,
  readArrayMember,
} from './array-member-texts.js';
export {
  type Page,
  type PageBudget,
  type PageFetcher,
  Paginator,
  type PagingOptions,
} from './paginator.js';
