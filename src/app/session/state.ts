/**
 * The client session state of spec §3, kept in sessionStorage, encrypted (AES-GCM via WebCrypto).
 * The store lives beside this file; sign-in (src/app/auth/) and the engine read and write it.
 */
export interface SessionState {
  authenticated: boolean;
  /** Identity details from the ID token. */
  identity: { givenName: string; familyName: string; emails: string[]; objectId: string } | null;
  accessToken: string | null;
  enrolled: boolean;
  approved: boolean;
  /** The office's state wants the patient alone to fill in the application: 'On this device' is not offered. */
  patientOnlyApplication: boolean;
  /** The office's published landing page code: where its patients start an application alone (decision 0217). */
  officeLandingCode: string | null;
  /** An admin of the current office turned this person's access to it off (Home says so; nothing of the office opens). */
  accessDisabled: boolean;
  userId: string | null;
  officeId: number | null;
  officeName: string | null;
  role: string | null;
  /** What this person may do in the current office (core/permissions.ts): the menus and buttons follow it. */
  permissions: readonly string[];
  userRole: string | null;
  title: string | null;
  timeZone: string | null;
  isMultipleOffices: boolean;
  hasBizApps: boolean;
  userInfoLoaded: boolean;
  /** A borrower signed in by passcode, for the one application their token opens. */
  borrowerAuthenticated: boolean;
  borrowerToken: string | null;
  borrowerAppId: number | null;
  officeInfo: unknown;
  selectedOfficeId: number | null;
  selectedOfficeName: string | null;
  currentApplication: unknown;
  finalize: unknown;
  /** Where to go after sign-in (an invite route is honoured first). */
  loginRoute: string | null;
  popups: { sendESignLink: boolean; lender: boolean; newLendersShown: boolean };
  progress: boolean;
  configItems: unknown[];
  /** Which send-application channels the popup marks required; reset to false after use. */
  fieldEmail: boolean;
  fieldPhone: boolean;
  /**
   * The office's device was handed to a patient (a borrower signed in where staff was, or a screen handed it over):
   * the staff session ended here and the next staff sign-in asks for the password again (src/app/auth/hand-over.ts).
   * A screen sets it where staff is signed in to hand the device over at once.
   */
  handedOver: boolean;
}

export const EMPTY_SESSION: SessionState = {
  authenticated: false,
  identity: null,
  accessToken: null,
  enrolled: false,
  approved: false,
  patientOnlyApplication: false,
  officeLandingCode: null,
  accessDisabled: false,
  userId: null,
  officeId: null,
  officeName: null,
  role: null,
  permissions: [],
  userRole: null,
  title: null,
  timeZone: null,
  isMultipleOffices: false,
  hasBizApps: false,
  userInfoLoaded: false,
  borrowerAuthenticated: false,
  borrowerToken: null,
  borrowerAppId: null,
  officeInfo: null,
  selectedOfficeId: null,
  selectedOfficeName: null,
  currentApplication: null,
  finalize: null,
  loginRoute: null,
  popups: { sendESignLink: false, lender: false, newLendersShown: false },
  progress: false,
  configItems: [],
  fieldEmail: false,
  fieldPhone: false,
  handedOver: false,
};
