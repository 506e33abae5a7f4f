import { describe, expect, it, vi } from 'vitest';
import { handOverState, watchHandOver } from '../../src/app/auth/hand-over.ts';
import { EMPTY_SESSION, type SessionState } from '../../src/app/session/state.ts';

const staff: SessionState = {
  ...EMPTY_SESSION,
  authenticated: true,
  accessToken: 'staff-token',
  identity: { givenName: 'Olivia', familyName: 'Admin', emails: ['office.admin@demo.test'], objectId: 'u1' },
  officeId: 101,
  officeName: 'Bright Smiles Dental',
  role: 'Office',
  userRole: 'Admin',
  userInfoLoaded: true,
  currentApplication: { id: 7, firstName: 'Other', lastName: 'Patient' },
  configItems: [{ name: 'x' }],
};
const patient = { borrowerAuthenticated: true, borrowerToken: 'borrower-token', borrowerAppId: 1234 };

/** A session store as small as the app's: get, update, subscribe. */
function store(initial: SessionState) {
  let state = initial;
  const listeners = new Set<(s: SessionState) => void>();
  return {
    get: () => state,
    update(partial: Partial<SessionState>) {
      state = { ...state, ...partial };
      for (const l of listeners) l(state);
    },
    subscribe(l: (s: SessionState) => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

describe('hand-over on the office device (issue 19)', () => {
  it('hands the device over at the click, before any patient signs in: a screen sets handedOver where staff is signed in (issue 37)', () => {
    expect(handOverState({ ...staff, handedOver: true })).toEqual({ ...EMPTY_SESSION, configItems: staff.configItems, handedOver: true });
    // Not staff: nothing to hand over.
    expect(handOverState({ ...EMPTY_SESSION, handedOver: true })).toBeNull();
  });

  it('keeps only the patient and what is public once a patient signs in where staff is signed in', () => {
    const after = handOverState({ ...staff, ...patient })!;
    expect(after).toEqual({ ...EMPTY_SESSION, ...patient, configItems: staff.configItems, handedOver: true });
    expect(after.accessToken).toBeNull();
    expect(after.officeId).toBeNull();
    expect(after.currentApplication).toBeNull();
  });

  it('is no hand-over for staff alone or a patient alone', () => {
    expect(handOverState(staff)).toBeNull();
    expect(handOverState({ ...EMPTY_SESSION, ...patient })).toBeNull();
  });

  it('locks the staff tokens and forgets cached office data once, when the patient signs in', () => {
    const s = store(staff);
    const lockStaff = vi.fn(async () => {});
    const forgetStaffData = vi.fn();
    watchHandOver(s, { lockStaff, forgetStaffData });
    expect(lockStaff).not.toHaveBeenCalled();
    s.update(patient);
    expect(s.get()).toMatchObject({ authenticated: false, accessToken: null, handedOver: true, ...patient });
    expect(lockStaff).toHaveBeenCalledTimes(1);
    expect(forgetStaffData).toHaveBeenCalledTimes(1);
    s.update({ borrowerAppId: 1234 });
    expect(lockStaff).toHaveBeenCalledTimes(1);
  });
});
