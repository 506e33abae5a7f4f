/** Text placed in server-rendered HTML (the provider's pages, the demo outbox, the sandbox lenders' site, the lender service's signing pages), escaped. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}
