import { describe, expect, it } from 'vitest';
import { accessChanges, decodeAccess, encodeAccess, type CallerAccess } from '../../core/access-header.ts';

/** Olivia, admin of office 100 and 101, as her session holds her in office 100. */
const ADMIN = ['startApplications', 'finalizeLoans', 'requestRefunds', 'approveRefunds', 'seeFunding', 'seeReports', 'manageUsers', 'editSettings'];
const held = { officeId: 100, role: 'admin', permissions: ADMIN, userRole: null, accessDisabled: false, isMultipleOffices: true };
const access = (roles: Record<string, string>, disabled: number[] = [], userRole: string | null = null, permissions: Record<string, string[]> = { 100: ADMIN }): CallerAccess => ({
  userRole,
  roles,
  permissions,
  disabled,
});

describe("the session follows the server's facts about the caller (x-access, issue 37)", () => {
  it('reads back what it wrote, and nothing that is not its own', () => {
    const facts = access({ 100: 'admin', 101: 'support' }, [102]);
    expect(decodeAccess(encodeAccess(facts))).toEqual(facts);
    for (const foreign of [null, '', 'admin', '{"roles":[]}', '{"userRole":1,"roles":{},"disabled":[]}', '{broken']) expect(decodeAccess(foreign)).toBeUndefined();
  });

  it('changes nothing while they agree', () => {
    expect(accessChanges(held, access({ 100: 'admin', 101: 'support' }))).toBeUndefined();
  });

  it('takes a new role in the office the session is in; a change in another office is not this one', () => {
    expect(accessChanges(held, access({ 100: 'support', 101: 'admin' }))).toEqual({ role: 'support' });
    expect(accessChanges(held, access({ 100: 'admin', 101: 'tpa' }))).toBeUndefined();
  });

  it('offers Switch Offices once the person works in a second office, and no more once they work in one (decision 0281)', () => {
    const one = { ...held, isMultipleOffices: false };
    expect(accessChanges(one, access({ 100: 'admin', 101: 'support' }))).toEqual({ isMultipleOffices: true });
    expect(accessChanges(held, access({ 100: 'admin' }, [101]))).toEqual({ isMultipleOffices: false });
  });

  it('takes the permissions granted or withdrawn in the office the session is in (decision 0279)', () => {
    const fewer = ADMIN.filter((p) => p !== 'seeReports');
    expect(accessChanges(held, access({ 100: 'admin', 101: 'support' }, [], null, { 100: fewer, 101: [] }))).toEqual({ permissions: fewer });
    expect(accessChanges(held, access({ 100: 'admin', 101: 'support' }, [], null, { 100: ADMIN, 101: [] }))).toBeUndefined();
  });

  it('shuts an office whose access was turned off or which the person left, and opens it again', () => {
    expect(accessChanges(held, access({ 101: 'admin' }, [100]))).toEqual({ accessDisabled: true, isMultipleOffices: false });
    expect(accessChanges(held, access({ 101: 'admin', 102: 'admin' }))).toEqual({ accessDisabled: true });
    expect(accessChanges({ ...held, accessDisabled: true }, access({ 100: 'sales', 101: 'admin' }))).toEqual({ role: 'sales', accessDisabled: false });
  });

  it("follows a platform admin's internal role, with or without an office", () => {
    const admin = { officeId: null, role: null, permissions: [], userRole: 'df.admin', accessDisabled: false, isMultipleOffices: false };
    expect(accessChanges(admin, access({}, [], 'dfi.admin'))).toEqual({ userRole: 'dfi.admin' });
    expect(accessChanges(admin, access({}, [], 'df.admin'))).toBeUndefined();
  });
});
