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
export { emailText } from './email.js';
export { RoutingDocumentError, type RoutingProblem } from './errors.js';
export {
  AlertAction,
  alertId,
  FactValue,
  HEALTH_KINDS,
  HealthAlert,
  HealthKind,
  Severity,
  SITE_KINDS,
} from './model.js';
export {
  type AlertRouter,
  DEFAULT_ROUTE,
  DEFAULT_ROUTING,
  documentRouter,
  formatPath,
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
