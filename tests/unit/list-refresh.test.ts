/**
 * Lists refresh when the data they show changed (issue 16): a screen's write of an application names, in its
 * `invalidates`, every read that shows applications, so the lists of the same tab are read again instead of showing
 * what they held (TanStack Query keeps a read fresh for 30 s). After an application made 'On this device' the desk's
 * Home kept its old records: App_SubmitApp refreshed App_GetApp only.
 *
 * The reads come from the contract (every operation whose answer holds application rows, and App_GetApp); the writes
 * are the operations that move an application's row — its stage, sub-status, statusText, funding or refund (decision
 * 0100's table, 0081-0083).
 */
import { describe, expect, it } from 'vitest';
import { listDescriptorFiles } from '../../core/descriptors/screens.ts';
import { readDescriptor } from '../../core/descriptors/read.ts';
import { bundleOpenApi } from '../../core/contract/bundle.ts';
import type { JsonObject } from '../../core/contract/documents.ts';
import { readOperations } from '../../core/contract/operations.ts';

const WRITES = [
  'App_SendApp', 'App_SubmitApp', 'App_SelectOffer', 'App_SubmitForESign', 'App_ESignConsent', 'App_SubmitKBA', 'App_SignAgreement',
  'App_UpdateContractStatus', 'App_SendESignLink', 'App_FinalizeApp', 'App_AddReferenceCode', 'App_SubmitToLender', 'App_SubmitTrans',
  'App_CancelTrans', 'App_SubmitRefund', 'AdminApps_UpdateRefund', 'AdminApps_MarkAppsFunded',
];
/** The row schemas of the application lists and the kanban's cards (components of the bundled contract). */
const ROWS = ['AppRow', 'FundedAppRow', 'AppCard'];

const contract = bundleOpenApi();
const schemas = (contract.components as JsonObject).schemas as JsonObject;

/** Does this schema reach one of the row schemas through its $refs? */
function holds(node: unknown, seen = new Set<string>()): boolean {
  if (Array.isArray(node)) return node.some((item) => holds(item, seen));
  if (!node || typeof node !== 'object') return false;
  const ref = (node as JsonObject).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    if (ROWS.includes(name)) return true;
    if (seen.has(name)) return false;
    seen.add(name);
    return holds(schemas[name], seen);
  }
  return Object.values(node).some((value) => holds(value, seen));
}

/** The reads that show applications: App_GetApp, and every operation whose 200 answer holds application rows. */
const READS = [
  'App_GetApp',
  ...readOperations(contract)
    .filter((op) => holds(((((contract.paths as JsonObject)[op.path] as JsonObject)[op.method] as JsonObject).responses as JsonObject)['200']))
    .map((op) => op.operationId),
];

/** Every submit or download action of the descriptors (form submits too), with where it is. */
function writesInScreens(): Array<{ at: string; operation: string; invalidates: string[] }> {
  const found: Array<{ at: string; operation: string; invalidates: string[] }> = [];
  const visit = (node: unknown, at: string, key?: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${at}/${i}`));
    if (!node || typeof node !== 'object') return;
    const o = node as JsonObject;
    // A source or a field's option list only reads; everything else that names an operation calls it when it acts.
    if (typeof o.operation === 'string' && key !== 'source' && key !== 'checks' && WRITES.includes(o.operation)) {
      found.push({ at, operation: o.operation, invalidates: (o.invalidates as string[] | undefined) ?? [] });
    }
    for (const [k, v] of Object.entries(o)) visit(v, `${at}/${k}`, k);
  };
  // As the engine reads them: parts written once in screens/fragments/, in place.
  for (const file of listDescriptorFiles()) if (file.kind && file.kind !== 'fragments') visit(readDescriptor(file.kind, file.file, file.text), `${file.file}#`);
  return found;
}

describe('a write of an application refreshes the lists that show applications', () => {
  it('the contract names the reads: the application and its lists', () => {
    expect(READS).toEqual(expect.arrayContaining(['App_GetApp', 'App_GetOfficeApps', 'App_GetOfficeAppsByStage', 'App_GetOfficeInactiveApps', 'AdminApps_GetApps']));
  });

  it('every screen that moves an application invalidates each of them', () => {
    const writes = writesInScreens();
    // The on-device application, the journey's steps and the office's own writes are all here.
    expect(new Set(writes.map((w) => w.operation))).toEqual(new Set(WRITES));
    const missing = writes.flatMap((w) => {
      const absent = READS.filter((read) => !w.invalidates.includes(read));
      return absent.length ? [`${w.at} ${w.operation}: ${absent.join(', ')}`] : [];
    });
    expect(missing).toEqual([]);
  });
});
