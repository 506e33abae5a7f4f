/** Who is calling, as established by the access layer before any handler runs. */
export type Caller =
  | { kind: 'anonymous' }
  | {
      kind: 'staff';
      userId: string;
      email: string;
      /** Internal role (df.admin, dfi.admin) or null for office users. */
      userRole: string | null;
      /** The user's overall role. */
      role: string | null;
      /** officeId → the user's role in that office. */
      offices: ReadonlyMap<number, string>;
      /** officeId → what the user holds there: the role's template with their own grants and withdrawals (decision 0279). */
      permissions: ReadonlyMap<number, readonly string[]>;
      /** Offices the user belongs to whose admins turned the user's access off: refused with 403, not 404. */
      disabledOffices: ReadonlySet<number>;
    }
  | { kind: 'borrower'; appId: number }
  /** A partner's software, by an office's API key: what the key's office may show it. */
  | { kind: 'partner'; officeId: number; keyId: number; name: string };

/** A platform admin (df.admin, dfi.admin): sees every office. */
export const isInternal = (caller: Caller) => caller.kind === 'staff' && (caller.userRole === 'df.admin' || caller.userRole === 'dfi.admin');
