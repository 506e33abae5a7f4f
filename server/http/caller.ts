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
    }
  | { kind: 'borrower'; appId: number };
