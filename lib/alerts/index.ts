export { ChatbotMessage, factLines, parseChatbotMessage, toChatbotMessage } from './chatbot.js';
export {
  DESTINATION_NAMES,
  DeliveryMessage,
  DestinationName,
  deliveryDeduplicationId,
  deliveryGroup,
} from './delivery.js';
export { emailText } from './email.js';
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
