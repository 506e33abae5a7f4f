import { describe, expect, it } from 'vitest';
import roles from '../../schemas/enums/office-role.json' with { type: 'json' };
import { bundleOpenApi } from '../../core/contract/bundle.ts';
import { readOperations } from '../../core/contract/operations.ts';
import { heldPermissions, permissionChanges, PERMISSIONS, rolePermissions } from '../../core/permissions.ts';

/** Office permissions (decision 0279): the roles are templates, and the contract says each operation's permission. */
describe('office permissions', () => {
  const operations = readOperations(bundleOpenApi());

  it("lists, for each operation that needs a permission, exactly the roles whose template gives it", () => {
    const needing = operations.filter((op) => op.access.permission);
    expect(needing.length).toBeGreaterThan(0);
    for (const op of needing) {
      const templated = roles.enum.filter((role) => rolePermissions(role).includes(op.access.permission as never));
      expect([...(op.access.office ?? [])].sort(), op.operationId).toEqual([...templated].sort());
    }
    // Every permission guards something.
    expect(new Set(needing.map((op) => op.access.permission))).toEqual(new Set(PERMISSIONS));
  });

  it("holds a role's template with a person's own grants and withdrawals, and stores only those", () => {
    expect(heldPermissions('support', [], [])).toEqual(['startApplications', 'finalizeLoans', 'requestRefunds']);
    expect(heldPermissions('support', ['seeReports'], ['requestRefunds'])).toEqual(['startApplications', 'finalizeLoans', 'seeReports']);
    expect(permissionChanges('support', ['startApplications', 'finalizeLoans', 'seeReports'])).toEqual({ granted: ['seeReports'], withdrawn: ['requestRefunds'] });
    expect(permissionChanges('admin', PERMISSIONS)).toEqual({ granted: [], withdrawn: [] });
    expect(heldPermissions('tpa', ['unknown'], [])).toEqual([]);
  });
});
