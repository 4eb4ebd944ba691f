/** Signed CloudFront links to the report pages (docs/operations.md, "Report links"). */
export { type CheckedPageLink, verifyPageLink } from './page-link-check.js';
export { PageLinkError, type PageLinkProblem } from './page-link-error.js';
export {
  generatePageLinkKey,
  type PageLinkKeyPair,
  PageLinkKeySecret,
  type PageLinkSettings,
  pageLinkSigner,
  publicKeyOf,
} from './page-link-key.js';
export {
  PAGES_PREFIX,
  type PageLinker,
  type PageLinkSigner,
  pageUrl,
  type SignedPageLink,
  signPageLink,
} from './page-links.js';
