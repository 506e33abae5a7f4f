import type { InjectOptions } from 'fastify';

/** Ids from the demo seed (server/db/seed/): offices from 100, applications from 1000. */
export const DEMO = {
  brightSmiles: 100,
  lakeside: 101,
  pendingOffice: 102,
  brightSmilesCode: 'brightsmiles',
  groupCode: 'demogroup',
} as const;

export interface Example {
  operationId: string;
  /** Staff e-mail to call as, or a borrower's application id. */
  as?: string;
  borrowerOf?: number;
  request: InjectOptions & { url: string };
}

const put = (url: string, payload: object): InjectOptions & { url: string } => ({ method: 'PUT', url, payload });
const post = (url: string, payload: object): InjectOptions & { url: string } => ({ method: 'POST', url, payload });
const get = (url: string): InjectOptions & { url: string } => ({ method: 'GET', url });

/**
 * A valid request for every implemented operation, made by a caller it allows, on the demo data.
 * The contract test requires one for each operation that is not pending.
 */
export function examples(appOfBrightSmiles: number): Example[] {
  const admin = 'office.admin@demo.test';
  return [
    { operationId: 'Health_GetHealth', request: get('/api/health') },
    { operationId: 'Config_GetConfigItems', request: get('/api/Config/GetConfigItems/States') },
    { operationId: 'Config_GetAllConfigItems', request: get('/api/Config/GetAllConfigItems') },
    { operationId: 'Office_GetConfigItems', as: admin, request: get(`/api/Office/GetConfigItems/${DEMO.brightSmiles}`) },
    { operationId: 'Office_GetOfficeInfo', as: admin, request: get(`/api/Office/GetOfficeInfo/${DEMO.brightSmiles}`) },
    { operationId: 'Office_GetUserOffices', as: admin, request: get('/api/Office/GetUserOffices/-1/1') },
    { operationId: 'Office_GetOfficeLandingPage', as: admin, request: get(`/api/Office/GetOfficeLandingPage/${DEMO.brightSmiles}`) },
    { operationId: 'Office_GetLandingPage', request: get(`/api/Office/GetLandingPage/${DEMO.brightSmilesCode}`) },
    { operationId: 'Office_GetMultiLandingPage', request: get(`/api/Office/GetMultiLandingPage/${DEMO.groupCode}`) },
    { operationId: 'Office_SearchOffices', request: post('/api/Office/SearchOffices', { search: 'dental', page: 1, pageSize: 10 }) },
    { operationId: 'Office_GetLenders', as: admin, request: get(`/api/Office/GetLenders/${DEMO.brightSmiles}/true`) },
    { operationId: 'Office_CheckNewLenders', as: admin, request: get(`/api/Office/CheckNewLenders/${DEMO.brightSmiles}/newLenders`) },
    { operationId: 'Users_GetUserOfficeInfo', as: admin, request: get(`/api/Users/GetUserOfficeInfo/${DEMO.lakeside}`) },
    { operationId: 'App_GetApp', as: admin, request: get(`/api/App/GetApp/${appOfBrightSmiles}/false`) },
    {
      operationId: 'App_GetOfficeApps',
      as: admin,
      request: put('/api/App/GetOfficeApps', { officeId: DEMO.brightSmiles, page: 1, pageSize: 25, sortBy: 'createdAtUtc', sortDesc: true }),
    },
    { operationId: 'App_GetOfficeInactiveApps', as: admin, request: put('/api/App/GetOfficeInactiveApps', { officeId: DEMO.brightSmiles }) },
    { operationId: 'App_GetOfficeAppsByStage', as: admin, request: put('/api/App/GetOfficeAppsByStage', { officeId: DEMO.brightSmiles }) },
  ];
}
