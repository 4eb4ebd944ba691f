export { ChatbotMessage, factLines, parseChatbotMessage, toChatbotMessage } from './chatbot.js';
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
