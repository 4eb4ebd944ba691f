export {
  buildXml,
  parseXml,
  validateXml,
  type XmlCodec,
  type XmlModel,
  xmlCodec,
} from './codec.js';
export {
  BLOCKED_URLS_XML,
  CART_REQUEST_XML,
  CART_RESPONSE_XML,
  DNSP_REPORT_XML,
} from './models.js';
