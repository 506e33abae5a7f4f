import type { Handlers } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { upsertDocs, uploadDoc } from './documents.ts';
import { enrollOffice, submitOffice, updateOffice } from './enrollment.ts';
import { upsertLandingPage } from './landing.ts';
import { applyLenders, recordLenderESign, submitOfficeToLender } from './lenders.ts';
import { upsertOwners } from './owners.ts';
import { landingPageByCode, landingPageOfOffice, multiLandingPage, searchOffices } from './public-pages.ts';
import { getOffice, newLenders, officeLenderList } from './reads.ts';
import { userOfficePage } from '../users/reads.ts';
import { staffId } from './records.ts';
import { officeSettingList, upsertOfficeSettings } from './settings.ts';
import { catalogueOf } from './office-lenders.ts';

type OfficeReads =
  | 'Office_GetOfficeInfo' | 'Office_GetUserOffices' | 'Office_GetOfficeLandingPage' | 'Office_GetLandingPage'
  | 'Office_GetMultiLandingPage' | 'Office_SearchOffices' | 'Office_GetLenders' | 'Office_CheckNewLenders';

type OfficeWrites =
  | 'Office_UpsertOffice' | 'Office_UpsertOwners' | 'Office_SubmitOffice' | 'Office_UpsertConfigItems' | 'Office_ApplyLender'
  | 'Office_UpdateLenderESign' | 'Office_SubmitOfficeToLender' | 'Office_UpsertDocs' | 'Office_UploadDoc' | 'Office_UpsertLandingPage';

export const officeHandlers: Pick<Handlers, OfficeReads | OfficeWrites> = {
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
    return { status: 200, body: await newLenders(services.db, params.officeId, catalogueOf(services).codes()) };
  },

  // ---- enrollment and office administration (writes) ----
  async Office_UpsertOffice({ body, caller, services }) {
    const { db, settings } = services;
    let id = body.id;
    if (id === 0) id = await enrollOffice(db, settings.piiKey, caller, body);
    else await updateOffice(db, settings.piiKey, caller, body);
    return { status: 200, body: await getOffice(db, settings.piiKey, id) };
  },
  async Office_UpsertOwners({ body, services }) {
    await upsertOwners(services.db, services.settings.piiKey, body);
    return { status: 200, body: (await getOffice(services.db, services.settings.piiKey, body.officeId)).owners };
  },
  async Office_SubmitOffice({ params, caller, services }) {
    await submitOffice(services.db, caller, params.id);
    return { status: 200, body: await getOffice(services.db, services.settings.piiKey, params.id) };
  },
  async Office_UpsertConfigItems({ body, services }) {
    await upsertOfficeSettings(services.db, body);
    return { status: 200, body: { items: await officeSettingList(services.db, body.officeId) } };
  },
  async Office_ApplyLender({ body, services }) {
    return { status: 202, body: await applyLenders(services.db, body) };
  },
  async Office_UpdateLenderESign({ body, services }) {
    await recordLenderESign(services.db, services.settings.borrowerTokenSecret, body);
    return { status: 202, body: { success: true, message: 'The e-sign outcome was recorded.' } };
  },
  async Office_SubmitOfficeToLender({ body, services }) {
    return { status: 200, body: await submitOfficeToLender(services.db, body) };
  },
  async Office_UpsertDocs({ body, caller, services }) {
    await upsertDocs(services.db, services.settings.uploadLimit, staffId(caller), body.model, body.files.files ?? []);
    return { status: 204, body: undefined };
  },
  async Office_UploadDoc({ body, caller, services }) {
    return { status: 200, body: await uploadDoc(services.db, services.settings.uploadLimit, staffId(caller), body.model, body.files.file?.[0]) };
  },
  async Office_UpsertLandingPage({ body, caller, services }) {
    const parts = { logo: body.files.logo?.[0], picture: body.files.picture?.[0] };
    await upsertLandingPage(services.db, services.settings.uploadLimit, staffId(caller), body.model, parts);
    return { status: 200, body: await landingPageOfOffice(services.db, body.model.officeId) };
  },
};
