export { validateCartRequest } from './cart.js';
export { COUNTRY_CODES, isCountryCode } from './country.js';
export {
  type DateInput,
  instantMs,
  SERVICE_INSTANT,
  utcInstant,
  validateBlockedWindow,
  validateEffectiveDate,
  validateModifiedSince,
  type WindowLimits,
} from './dates.js';
export {
  addDays,
  DAY_MS,
  Day,
  dayOf,
  daysFrom,
  daysUpTo,
  isDay,
  isMonth,
  Month,
  startOfDay,
} from './day.js';
export {
  DNSP_REPORT_TYPES,
  type DnspReportType,
  GSM_REPORT_TYPES,
  type GsmReportType,
  validateBatchSize,
  validateKeycode,
  validateMachineId,
  validateReportType,
  validateReturnedInfo,
  validateSiteId,
  validateVendorOrderCode,
} from './identifiers.js';
export { isVisiblyBlank } from './text.js';
