export { type Received, type Receiver, startReceiver } from '../../scripts/local/receivers.js';
