export { ChatbotMessage, factLines, parseChatbotMessage, toChatbotMessage } from './chatbot.js';
export {
  DESTINATION_NAMES,
  DESTINATION_TYPES,
  DeliveryMessage,
  DeliveryMessageV1,
  DeliveryMessageV2,
  DestinationName,
  DestinationType,
  deliveryDeduplicationId,
  deliveryGroup,
  RouteRef,
} from './delivery.js';
export type { DocumentProblem } from './documents.js';
export { emailText } from './email.js';
export { InvalidDocumentError, MutesDocumentError, RoutingDocumentError } from './errors.js';
export {
  ALERT_EVENT_KINDS,
  type AlertEventFacts,
  AlertEventKind,
  AlertEventRow,
  alertEventRow,
} from './history.js';
export {
  AlertAction,
  alertId,
  FactValue,
  HEALTH_KINDS,
  HealthAlert,
  HealthKind,
  KIND_TEXT,
  Severity,
  SITE_KINDS,
} from './model.js';
export {
  holdingWindow,
  type MaintenanceWindow,
  MUTES_SCHEMA,
  type MutedAlert,
  MutesDocument,
  mutesProblems,
  NO_MUTES,
  parseMutesText,
  type WindowMatch,
  windowActive,
  windowMatches,
} from './mutes.js';
export {
  type AlertRouter,
  DEFAULT_ROUTE,
  DEFAULT_ROUTING,
  documentRouter,
  LEGACY_DESTINATIONS,
  parseRouting,
  parseRoutingText,
  ROUTING_SCHEMA,
  type Route,
  type RoutedAlert,
  RouteFields,
  Routing,
  RoutingDocument,
  routeAlert,
  routingProblems,
} from './routing.js';
