// The push module's public face (issue 44): devices' push subscriptions and the pushes of notifications.
export { wirePush, type PushModule } from './push.module.js';
export { PUSH_ERRORS } from './push.service.js';
export { DELIVER_RETRIES, MAX_FAILURES, PUSH_JOBS } from './push.delivery.js';
