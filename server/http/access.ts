import type { FastifyRequest } from 'fastify';
import { and, eq, not, or, sql } from 'drizzle-orm';
import { userOffices, users } from '../db/schema.ts';
import { StatementCache } from '../db/prepared.ts';
import type { AccessRule, Operation } from '../../core/contract/operations.ts';
import type { Services } from '../services.ts';
import { PARTNER_KEY_PREFIX, partnerOf } from './partner-keys.ts';
import type { Caller } from './caller.ts';
import { HttpProblem } from './problem.ts';
import { clientNetwork } from './client.ts';
import { recordSecurityEvent } from './security-events.ts';
import { heldPermissions } from '../../core/permissions.ts';

/** Verifies bearer tokens; the identity layer supplies the real ones (built-in provider or external issuer). */
export interface TokenVerifiers {
  /** A staff access token → the user's id in our users table. */
  staff(token: string): Promise<{ userId: string }>;
  /** A borrower token → the one application it opens. */
  borrower(token: string): Promise<{ appId: number }>;
}

type Staff = Extract<Caller, { kind: 'staff' }>;

const BEARER = /^Bearer\s+(\S+)$/i;

const staffStatement = new StatementCache<
  {
    id: string;
    email: string;
    role: string | null;
    userRole: string | null;
    isDisabled: boolean;
    officeId: number | null;
    officeRole: string | null;
    linkDisabled: boolean | null;
    granted: string[] | null;
    withdrawn: string[] | null;
  }[]
>('staff_');

const NOT_AUTHORIZED = 'You are not authorized to perform this action.';
/** The refusal for a member whose office turned their access off: said plainly, since they know the office. */
const ACCESS_DISABLED = 'Your access to this office has been disabled. Ask an admin of the office to enable it.';

/** The user and their roles per office, read on every call (decision 0140): one statement, prepared once. */
export async function loadStaff(services: Pick<Services, 'db'>, userId: string): Promise<Staff | undefined> {
  const db = services.db;
  const list = await staffStatement.run(db, 'roles', { userId }, () =>
    db
      .select({
        id: users.id,
        email: users.email,
        role: users.role,
        userRole: users.userRole,
        isDisabled: users.isDisabled,
        officeId: userOffices.officeId,
        officeRole: userOffices.role,
        linkDisabled: userOffices.isDisabled,
        granted: userOffices.permissionsGranted,
        withdrawn: userOffices.permissionsWithdrawn,
      })
      .from(users)
      .leftJoin(
        userOffices,
        and(
          eq(userOffices.userId, users.id),
          // an invitation grants nothing until the invitee accepts it (Users_ProcessInvite)
          or(not(userOffices.isInvited), userOffices.isInviteProcessed),
        ),
      )
      .where(eq(users.id, sql.placeholder('userId'))),
  );
  const first = list[0];
  if (!first || first.isDisabled) return undefined;
  const offices = new Map<number, string>();
  const permissions = new Map<number, readonly string[]>();
  const disabledOffices = new Set<number>();
  for (const row of list) {
    if (row.officeId === null || !row.officeRole) continue;
    if (row.linkDisabled) disabledOffices.add(row.officeId);
    else {
      offices.set(row.officeId, row.officeRole);
      permissions.set(row.officeId, heldPermissions(row.officeRole, row.granted ?? [], row.withdrawn ?? []));
    }
  }
  return { kind: 'staff', userId: first.id, email: first.email, role: first.role, userRole: first.userRole, offices, permissions, disabledOffices };
}

/** The office that owns the record an operation touches; undefined when there is no such record. */
async function owningOffice(services: Services, kind: string, id: unknown): Promise<number | undefined> {
  if (kind === 'office') return typeof id === 'number' ? id : undefined;
  const table = { application: sql`applications`, file: sql`files`, refund: sql`refunds`, webhook: sql`webhook_endpoints`, apiKey: sql`api_keys` }[kind];
  if (!table || (typeof id !== 'number' && typeof id !== 'string')) return undefined;
  const rows = await services.db.execute<{ office_id: number }>(sql`select office_id from ${table} where id = ${id}`);
  const row = rows.rows[0];
  return row ? Number(row.office_id) : undefined;
}

/** Reads `path.X`, `query.X`, `body.X` or `body.model.X` from the request. */
function valueAt(request: FastifyRequest, from: string): unknown {
  const [where, ...names] = from.split('.') as ['path' | 'query' | 'body', ...string[]];
  let value: unknown = { path: request.params, query: request.query, body: request.body }[where];
  for (const name of names) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
  return value;
}

type NarrowEntry = NonNullable<AccessRule['narrow']>[number];

/** The rule with one x-access.narrow entry's keys in place of its own. */
function narrowedBy(rule: AccessRule, { when: _when, ...replacement }: NarrowEntry): AccessRule {
  return { ...rule, ...replacement };
}

/** The operation's rule after the body-dependent narrowing of x-access.narrow. */
function effectiveRule(rule: AccessRule, request: FastifyRequest): AccessRule {
  const entry = rule.narrow?.find(({ when }) => valueAt(request, when.field) === when.equals);
  return entry ? narrowedBy(rule, entry) : rule;
}

/**
 * Whether `rule` may admit the caller, whatever the input: an internal role, any signed-in user, one of its office roles
 * held in any office, a borrower of the kind of record it names. On an office's record, the office that owns it decides
 * (authorize): a member without the role gets 403, anyone else 404, as for a record that does not exist.
 */
function mayAdmit(rule: AccessRule, caller: Caller): boolean {
  if (rule.anonymous) return true;
  const kind = rule.scope?.kind ?? 'none';
  if (caller.kind === 'borrower') return Boolean(rule.borrower) && kind === 'application';
  if (caller.kind === 'partner') return Boolean(rule.partner) && (kind === 'office' || kind === 'application');
  if (caller.kind !== 'staff') return false;
  if ((caller.userRole && rule.internal?.includes(caller.userRole)) || rule.user) return true;
  if (!rule.office) return false;
  return kind !== 'none' || [...caller.offices.keys()].some((officeId) => holds(rule, caller, officeId));
}

/**
 * Whether the caller may act in this office under the rule: by its permission where it names one (the role is then a
 * template, and a person may hold it by a grant or have lost it), else by the role (decision 0279).
 */
function holds(rule: AccessRule, caller: Staff, officeId: number): boolean {
  if (rule.permission) return caller.permissions.get(officeId)?.includes(rule.permission) ?? false;
  const role = caller.offices.get(officeId);
  return role !== undefined && rule.office!.includes(role);
}

async function securityEvent(services: Services, request: FastifyRequest, kind: string, caller: Caller, detail: Record<string, unknown>): Promise<void> {
  const actor = caller.kind === 'staff' ? caller.userId : caller.kind === 'borrower' ? `borrower:${caller.appId}` : caller.kind === 'partner' ? `api-key:${caller.keyId}` : 'anonymous';
  request.log.warn({ security: kind, actor, ...detail }, 'access refused');
  await recordSecurityEvent(services.db, { kind, actor, ip: clientNetwork(request), detail });
}

export function createAccess(services: Services, verifiers: TokenVerifiers) {
  async function authenticate(op: Operation, request: FastifyRequest): Promise<Caller> {
    const rule = op.access;
    const key = request.headers['x-api-key'];
    // An office's API key speaks for its office's partner software alone: no token beside it counts.
    if (typeof key === 'string' && key.startsWith(PARTNER_KEY_PREFIX)) return partnerOf(services.db, key);
    if (rule.key || rule.narrow?.some((entry) => entry.key)) {
      if (typeof key !== 'string' || !services.settings.apiKeys.includes(key)) {
        throw new HttpProblem(401, 'A valid X-Api-Key header is required.');
      }
    }
    const bearer = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const borrowerToken = request.headers['x-borrower-token'];
    let caller: Caller = { kind: 'anonymous' };
    if (bearer && (rule.user || rule.office || rule.internal || !(rule.borrower && borrowerToken))) {
      const { userId } = await verifiers.staff(bearer).catch(() => {
        throw new HttpProblem(401, 'The access token is not valid or has expired.');
      });
      const staff = await loadStaff(services, userId);
      if (!staff) throw new HttpProblem(401, 'The access token is not valid or has expired.');
      caller = staff;
    } else if (typeof borrowerToken === 'string') {
      const { appId } = await verifiers.borrower(borrowerToken).catch(() => {
        throw new HttpProblem(401, 'The borrower session is not valid or has expired.');
      });
      caller = { kind: 'borrower', appId };
    }
    if (caller.kind === 'anonymous' && !rule.anonymous) throw new HttpProblem(401, 'Sign-in is required.');
    return caller;
  }

  /**
   * Refuses a caller whose role the operation admits under none of its rules (its own, or one x-access.narrow makes of
   * it): decided before the input is read, so that a caller without a right learns nothing from validation errors.
   */
  function admit(op: Operation, caller: Caller): void {
    const rules = [op.access, ...(op.access.narrow ?? []).map((entry) => narrowedBy(op.access, entry))];
    if (!rules.some((rule) => mayAdmit(rule, caller))) throw new HttpProblem(403, NOT_AUTHORIZED);
  }

  async function authorize(op: Operation, request: FastifyRequest, caller: Caller): Promise<void> {
    const rule = effectiveRule(op.access, request);
    if (rule.anonymous) return;
    const kind = rule.scope?.kind ?? 'none';
    const id = rule.scope?.from ? valueAt(request, rule.scope.from) : undefined;
    if (caller.kind === 'staff') {
      if (caller.userRole && rule.internal?.includes(caller.userRole)) return;
      // `user` is a signed-in staff member acting on their own record (named, or left out to mean
      // "mine"), or on nothing in particular.
      if (rule.user && (kind === 'none' || (kind === 'user' && (id === undefined || id === caller.userId)))) return;
      if (rule.office) {
        if (kind === 'none') {
          if ([...caller.offices.keys()].some((officeId) => holds(rule, caller, officeId))) return;
          throw new HttpProblem(403, NOT_AUTHORIZED);
        }
        const officeId = await owningOffice(services, kind, id);
        const role = officeId === undefined ? undefined : caller.offices.get(officeId);
        if (role && holds(rule, caller, officeId!)) return;
        if (role) throw new HttpProblem(403, NOT_AUTHORIZED);
        if (officeId !== undefined && caller.disabledOffices.has(officeId)) throw new HttpProblem(403, ACCESS_DISABLED);
        if (officeId !== undefined) await securityEvent(services, request, 'cross-office', caller, { operationId: op.operationId, kind, id });
        throw new HttpProblem(404, 'The record could not be found.');
      }
      throw new HttpProblem(403, NOT_AUTHORIZED);
    }
    if (caller.kind === 'partner' && rule.partner && (kind === 'office' || kind === 'application')) {
      if ((await owningOffice(services, kind, id)) === caller.officeId) return;
      await securityEvent(services, request, 'cross-office', caller, { operationId: op.operationId, kind, id });
      throw new HttpProblem(404, 'The record could not be found.');
    }
    if (caller.kind === 'borrower' && rule.borrower && kind === 'application') {
      if (Number(id) === caller.appId) return;
      await securityEvent(services, request, 'cross-application', caller, { operationId: op.operationId, id });
      throw new HttpProblem(404, 'The record could not be found.');
    }
    throw new HttpProblem(403, NOT_AUTHORIZED);
  }

  return { authenticate, admit, authorize };
}
