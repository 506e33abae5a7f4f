import type { Handlers } from '../../http/handler-types.ts';
import { getApplication } from './detail.ts';
import { appFileList, uploadAppFile } from './files.ts';
import { finalizeApplication } from './finalize.ts';
import { catalogueOf } from '../offices/office-lenders.ts';
import { addReferenceCode, appLenderAnswers, appStipulations } from './followup.ts';
import { appNoteList, upsertAppNote } from './notes.ts';
import { applicationsByStage, listApplications } from './rows.ts';
import { ACTIVE_STAGES, INACTIVE_STAGES } from './status.ts';
import { belonging, locationsInView } from '../users/locations.ts';
import { cancelLenderTransaction, lenderTransactionList, submitLenderTransaction } from './transactions.ts';

type ApplicationReads = 'App_GetOfficeApps' | 'App_GetOfficeAppsByStage' | 'App_GetOfficeInactiveApps';
type ApplicationFollowUp =
  | 'App_UpsertAppNote' | 'App_GetAppNotes' | 'App_UploadFile' | 'App_GetAppFiles' | 'App_GetAppStips' | 'App_GetAppLenders'
  | 'App_AddReferenceCode' | 'App_FinalizeApp' | 'App_GetLenderTrans' | 'App_SubmitTrans' | 'App_CancelTrans';

/** Lanes of the kanban hold this many cards each; the lane header shows the full count. */
export const KANBAN_LANE_SIZE = 25;

export const applicationHandlers: Pick<Handlers, ApplicationReads | ApplicationFollowUp> = {
  async App_GetOfficeApps({ body, caller, services }) {
    // `stages` may name any stage: the search page (/search/{id}) looks for an applicant in all of them.
    const officeIds = body.allLocations ? await locationsInView(services.db, caller, body.officeId, belonging) : undefined;
    return { status: 200, body: await listApplications(services.db, { officeId: body.officeId, officeIds, stages: ACTIVE_STAGES, anyStage: true }, body) };
  },
  async App_GetOfficeInactiveApps({ body, services }) {
    return { status: 200, body: await listApplications(services.db, { officeId: body.officeId, stages: INACTIVE_STAGES }, body) };
  },
  async App_GetOfficeAppsByStage({ body, services }) {
    const stages = body.stages?.length ? ACTIVE_STAGES.filter((s) => body.stages!.includes(s)) : ACTIVE_STAGES;
    return { status: 200, body: await applicationsByStage(services.db, body.officeId, stages, body.search, body.pageSize ?? KANBAN_LANE_SIZE) };
  },

  // Notes, files, stipulations, lenders' answers, reference code.
  async App_UpsertAppNote({ body, caller, services }) {
    return { status: 200, body: await upsertAppNote(services.db, caller, body) };
  },
  async App_GetAppNotes({ query, services }) {
    return { status: 200, body: await appNoteList(services.db, query.appId) };
  },
  async App_UploadFile({ body, caller, services }) {
    return { status: 200, body: await uploadAppFile(services.db, services.settings.uploadLimit, caller, body.model, body.files.file?.[0]) };
  },
  async App_GetAppFiles({ query, services }) {
    return { status: 200, body: await appFileList(services.db, query.appId) };
  },
  async App_GetAppStips({ params, services }) {
    return { status: 200, body: await appStipulations(services.db, params.id) };
  },
  async App_GetAppLenders({ query, services }) {
    return { status: 200, body: await appLenderAnswers(services.db, query.appId) };
  },
  async App_AddReferenceCode({ body, caller, services }) {
    await addReferenceCode(services.db, caller, body);
    return { status: 200, body: await getApplication(services.db, services.settings.piiKey, body.appId) };
  },

  // Finalize and lender transactions (money: each writes an audit log line under the application's lock).
  async App_FinalizeApp({ body, caller, services }) {
    await finalizeApplication(services.db, caller, body, (code) => (code ? catalogueOf(services).get(code)?.descriptor.fundingDays : undefined));
    return { status: 200, body: await getApplication(services.db, services.settings.piiKey, body.appId) };
  },
  async App_GetLenderTrans({ params, services }) {
    return { status: 200, body: await lenderTransactionList(services.db, params.id) };
  },
  async App_SubmitTrans({ body, caller, services }) {
    return { status: 200, body: await submitLenderTransaction(services.db, caller, body) };
  },
  async App_CancelTrans({ body, caller, services }) {
    return { status: 200, body: await cancelLenderTransaction(services.db, caller, body) };
  },
};
