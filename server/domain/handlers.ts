import type { Handlers } from '../http/handler-types.ts';
import { pendingHandlers } from './pending.ts';
import { applicationHandlers } from './applications/handlers.ts';
import { configHandlers } from './config/handlers.ts';
import { officeHandlers } from './offices/handlers.ts';
import { healthHandlers } from './health.ts';
import { userHandlers } from './users/handlers.ts';
import { otpHandlers } from './otp/handlers.ts';
import { fileHandlers } from './files/handlers.ts';
import { adminOfficeHandlers } from './admin/handlers.ts';
import { adminAppHandlers } from './admin/apps-handlers.ts';
import { adminJobHandlers } from './admin/jobs-handlers.ts';
import { fundingHandlers } from './funding/handlers.ts';
import { refundHandlers } from './refunds/handlers.ts';
import { journeyHandlers } from './journey/handlers.ts';
import { reviewHandlers } from './review/handlers.ts';
import { bankHandlers } from './bank/handlers.ts';
import { studioHandlers } from './studio/handlers.ts';
import { webhookHandlers } from './webhooks/handlers.ts';
import { apiKeyHandlers } from './api-keys/handlers.ts';
import { eventHandlers } from './events-handlers.ts';
import { reportHandlers } from './reports/handlers.ts';
import { trackerHandlers } from './funding/tracker-handlers.ts';
import { organizationHandlers } from './organizations/handlers.ts';
import { clientConfigHandlers } from '../identity/client-config.ts';

/** Every operation of the contract; the type-check fails if one is missing or answers off-contract. */
export function createHandlers(): Handlers {
  return {
    ...pendingHandlers(),
    ...healthHandlers,
    ...clientConfigHandlers,
    ...configHandlers,
    ...officeHandlers,
    ...organizationHandlers,
    ...applicationHandlers,
    ...userHandlers,
    ...otpHandlers,
    ...fileHandlers,
    ...adminOfficeHandlers,
    ...adminAppHandlers,
    ...adminJobHandlers,
    ...fundingHandlers,
    ...refundHandlers,
    ...reviewHandlers,
    ...bankHandlers,
    ...studioHandlers,
    ...webhookHandlers,
    ...apiKeyHandlers,
    ...eventHandlers,
    ...reportHandlers,
    ...trackerHandlers,
    // The borrower journey, App_GetApp included (the application with the route of its next step).
    ...journeyHandlers,
  };
}
