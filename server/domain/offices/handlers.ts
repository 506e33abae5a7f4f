import type { Handlers } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import {
  getOffice, landingPageByCode, landingPageOfOffice, multiLandingPage, newLenders, officeLenderList, searchOffices, userOfficePage,
} from './reads.ts';

type OfficeReads =
  | 'Office_GetOfficeInfo' | 'Office_GetUserOffices' | 'Office_GetOfficeLandingPage' | 'Office_GetLandingPage'
  | 'Office_GetMultiLandingPage' | 'Office_SearchOffices' | 'Office_GetLenders' | 'Office_CheckNewLenders';

export const officeHandlers: Pick<Handlers, OfficeReads> = {
  async Office_GetOfficeInfo({ params, services }) {
    return { status: 200, body: await getOffice(services.db, services.settings.piiKey, params.id) };
  },
  async Office_GetUserOffices({ params, caller, services }) {
    if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
    return { status: 200, body: await userOfficePage(services.db, caller.userId, params.pageSize, params.page) };
  },
  async Office_GetOfficeLandingPage({ params, services }) {
    return { status: 200, body: await landingPageOfOffice(services.db, params.id) };
  },
  async Office_GetLandingPage({ params, services }) {
    return { status: 200, body: await landingPageByCode(services.db, params.code) };
  },
  async Office_GetMultiLandingPage({ params, services }) {
    return { status: 200, body: await multiLandingPage(services.db, params.code) };
  },
  async Office_SearchOffices({ body, services }) {
    return { status: 200, body: await searchOffices(services.db, body) };
  },
  async Office_GetLenders({ params, services }) {
    return { status: 200, body: await officeLenderList(services.db, params.officeId, params.excludeDisabled) };
  },
  async Office_CheckNewLenders({ params, services }) {
    return { status: 200, body: await newLenders(services.db, params.officeId) };
  },
};
