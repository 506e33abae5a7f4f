import type { Handlers } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { isInternal, type Caller } from '../../http/caller.ts';
import type { Db } from '../../db/index.ts';
import type { components } from '../../../codegen/generated/api.ts';
import { holding, locationsInView } from './locations.ts';
import { toUtc } from '../values.ts';
import { inviteByToken } from '../../identity/invitations.ts';
import { setPermissions } from './permissions.ts';
import { adminUser, adminUserPage, adminUsers, officeUserList, sessionUser, userOfficePage } from './reads.ts';
import { processInvite, recordUserVisit, removeOfficeUser, resendInvite, revokeInvite, upsertAdminUser, upsertOfficeUser, type WriteContext } from './writes.ts';

type Schemas = components['schemas'];

type UserOperations =
  | 'Users_GetUserOfficeInfo' | 'Users_GetUserInfo' | 'Users_GetUsers' | 'Users_UpsertUser' | 'Users_DeleteUser'
  | 'Users_ResendInvite' | 'Users_RevokeInvite' | 'Users_GetInviteInfo' | 'Users_ProcessInvite' | 'Users_SetPermissions'
  | 'AdminUsers_GetAllUsers' | 'AdminUsers_GetUserDetails' | 'AdminUsers_UpsertUser' | 'AdminUsers_UpsertUsers'
  | 'AdminOffices_GetUsers' | 'AdminOffices_UpsertUsers' | 'AdminOffices_UpsertUser';

function staff(caller: Caller): Extract<Caller, { kind: 'staff' }> {
  if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
  return caller;
}

const context = (caller: Caller, settings: WriteContext['settings']): WriteContext => ({ actorId: staff(caller).userId, settings });

/**
 * An invitation to several locations (decision 0281) names only other locations of the office's organization where the
 * inviter manages users; and it is an invitation: an existing member is added elsewhere by inviting them there.
 */
async function checkOtherLocations(db: Db, caller: Caller, body: Schemas['OfficeUserUpsert']): Promise<void> {
  const also = body.alsoOfficeIds ?? [];
  if (also.length === 0) return;
  if (body.userId) throw HttpProblem.conflict('Other locations are added by inviting the person there.');
  const allowed = await locationsInView(db, caller, body.officeId, isInternal(caller) ? () => true : holding('manageUsers'));
  if (also.some((officeId) => officeId === body.officeId || !allowed.includes(officeId))) {
    throw new HttpProblem(403, 'You can invite people only to the other locations of this organization where you manage users.');
  }
}

/** Spec §7 Users and Admin users calls; who may call which is the contract's x-access (server/http/access.ts). */
export const userHandlers: Pick<Handlers, UserOperations> = {
  async Users_GetUserOfficeInfo({ params, caller, services }) {
    const { results } = await userOfficePage(services.db, staff(caller).userId, -1, 1);
    const link = results.find((office) => office.officeId === params.officeId);
    if (!link) throw new HttpProblem(404, 'The office could not be found.');
    return { status: 200, body: link };
  },

  async Users_GetUserInfo({ body, caller, services }) {
    const me = staff(caller);
    const user = await sessionUser(services.db, me.userId);
    await recordUserVisit(services.db, me.userId, body, user.officeId);
    return { status: 200, body: user };
  },

  async Users_SetPermissions({ body, caller, services }) {
    return { status: 200, body: await setPermissions(services.db, staff(caller).userId, body) };
  },

  async Users_GetUsers({ params, services }) {
    return { status: 200, body: await officeUserList(services.db, params.officeId) };
  },

  async Users_UpsertUser({ body, caller, services }) {
    await checkOtherLocations(services.db, caller, body);
    const result = await services.db.transaction((tx) => upsertOfficeUser(tx, context(caller, services.settings), body));
    return { status: 200, body: result };
  },

  async Users_DeleteUser({ params, services }) {
    await services.db.transaction((tx) => removeOfficeUser(tx, params.userId, params.officeId));
    return { status: 200, body: { success: true, message: null } };
  },

  async Users_ResendInvite({ params, caller, services }) {
    const result = await services.db.transaction((tx) => resendInvite(tx, context(caller, services.settings), params.userId, params.officeId));
    return { status: 200, body: result };
  },

  async Users_RevokeInvite({ params, services }) {
    await services.db.transaction((tx) => revokeInvite(tx, params.userId, params.officeId));
    return { status: 200, body: { success: true, message: null } };
  },

  async Users_GetInviteInfo({ params, services }) {
    const details = await inviteByToken(services.db, params.id);
    if (!details) throw new HttpProblem(404, 'The invitation could not be found.');
    return {
      status: 200,
      body: {
        inviteId: params.id,
        officeId: details.invite.officeId,
        officeName: details.officeName,
        firstName: details.user?.firstName ?? '',
        lastName: details.user?.lastName ?? '',
        email: details.invite.email,
        role: details.invite.role,
        isExpired: details.isExpired,
        isProcessed: details.isProcessed,
        expiresAtUtc: toUtc(details.invite.expiresAt),
        timeZone: details.timeZone,
      },
    };
  },

  async Users_ProcessInvite({ body, caller, services }) {
    const me = staff(caller);
    const result = await services.db.transaction((tx) => processInvite(tx, me, body.inviteId));
    return { status: 200, body: result };
  },

  async AdminUsers_GetAllUsers({ body, services }) {
    return { status: 200, body: await adminUserPage(services.db, body) };
  },

  async AdminUsers_GetUserDetails({ params, services }) {
    return { status: 200, body: await adminUser(services.db, params.userId) };
  },

  async AdminUsers_UpsertUser({ body, caller, services }) {
    const id = await services.db.transaction((tx) => upsertAdminUser(tx, context(caller, services.settings), body));
    return { status: 200, body: await adminUser(services.db, id) };
  },

  async AdminUsers_UpsertUsers({ body, caller, services }) {
    const write = context(caller, services.settings);
    const emails = body.users.map((user) => user.email.toLowerCase());
    if (new Set(emails).size !== emails.length) throw HttpProblem.validation({ users: ['Each e-mail may appear once.'] });
    const ids = await services.db.transaction(async (tx) => {
      const saved: string[] = [];
      for (const user of body.users) saved.push(await upsertAdminUser(tx, write, user));
      return saved;
    });
    return { status: 200, body: await adminUsers(services.db, ids) };
  },

  async AdminOffices_GetUsers({ params, services }) {
    return { status: 200, body: await officeUserList(services.db, params.officeId) };
  },

  async AdminOffices_UpsertUser({ body, caller, services }) {
    await checkOtherLocations(services.db, caller, body);
    const result = await services.db.transaction((tx) => upsertOfficeUser(tx, context(caller, services.settings), body));
    return { status: 200, body: result };
  },

  async AdminOffices_UpsertUsers({ body, caller, services }) {
    const write = context(caller, services.settings);
    const wrong = body.users.flatMap((user, index) => (user.officeId === body.officeId ? [] : [`users/${index}/officeId`]));
    if (wrong.length) throw HttpProblem.validation(Object.fromEntries(wrong.map((field) => [field, [`Must be ${body.officeId}, the office of the list.`]])));
    const emails = body.users.map((user) => user.email.toLowerCase());
    if (new Set(emails).size !== emails.length) throw HttpProblem.validation({ users: ['Each e-mail may appear once.'] });
    const result = await services.db.transaction(async (tx) => {
      const saved = [];
      for (const user of body.users) {
        await checkOtherLocations(tx, caller, user);
        saved.push(await upsertOfficeUser(tx, write, user));
      }
      return saved;
    });
    return { status: 200, body: result };
  },
};
