/**
 * The lender service's demo settings (decision 0259), which the portal in demo mode uses to reach it when a lender
 * file says `"adapter": "http"` and no LENDER_<CODE>_URL is set. Demo only: production has no default address or secret.
 */
export const DEMO_LENDER_SERVICE = {
  port: 3300,
  clientSecret: 'demo-lender-client-secret',
  apiKey: 'demo-lender-api-key',
} as const;
