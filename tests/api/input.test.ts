import { beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { appNotes, files } from '../../server/db/schema.ts';
import messages from '../../schemas/messages.json';
import { harness, type Harness } from '../support/harness.ts';
import { multipart, SAMPLE } from '../support/multipart.ts';
import { insertApplication } from './apps-fixtures.ts';
import { DEMO } from './examples.ts';

const ADMIN = 'office.admin@demo.test';

/** What the binder does to input before validation (docs/decisions/0170): the root fixes the fuzzer found. */
describe('hostile input', () => {
  let h: Harness;
  let appId: number;
  beforeAll(async () => {
    h = await harness();
    appId = await insertApplication(h.database.db, { officeId: DEMO.brightSmiles, stage: 'OfferSelected', firstName: 'Ines', lastName: 'Input' });
  });

  const problem = (body: string) => JSON.parse(body) as { status: number; errors?: Record<string, string[]> };

  it('cleans control characters and lone surrogates out of text a person typed, and stores the rest', async () => {
    const saved = await h.request(ADMIN, 'PUT', '/api/App/UpsertAppNote', { appId, note: 'Called\u0000 the\u0007 patient\u001b \ud800back.\nTomorrow\t10am.' });
    expect(saved.statusCode, saved.body).toBe(200);
    const [note] = await h.database.db.select({ note: appNotes.note }).from(appNotes).where(eq(appNotes.appId, appId)).orderBy(desc(appNotes.id)).limit(1);
    // Line breaks and tabs are text people type; the rest is not.
    expect(note!.note).toBe('Called the patient \ufffdback.\nTomorrow\t10am.');
  });

  it('cleans a NUL out of an uploaded file name', async () => {
    const body = multipart([
      { name: 'model', value: JSON.stringify({ appId, fileType: 'ProofOfIncome' }) },
      { name: 'file', fileName: 'pay\u0000stub.pdf', contentType: 'application/pdf', data: SAMPLE.pdf },
    ]);
    const response = await h.call({ method: 'POST', url: '/api/App/UploadFile', as: ADMIN, payload: body.payload, headers: body.headers });
    expect(response.statusCode, response.body).toBe(200);
    const [file] = await h.database.db.select({ name: files.fileName }).from(files).where(eq(files.appId, appId)).orderBy(desc(files.createdAt)).limit(1);
    expect(file!.name).toBe('paystub.pdf');
  });

  it('refuses a control character in a path or query value with 400 in the catalogue words, naming the parameter', async () => {
    for (const url of [`/api/App/GetAppNotes?appId=${appId}%00`, `/api/App/GetAppStips/${appId}%00`]) {
      const response = await h.call({ method: url.includes('Notes') ? 'PUT' : 'GET', url, as: ADMIN });
      expect(response.statusCode, url).toBe(400);
      expect(Object.values(problem(response.body).errors ?? {}), url).toEqual([[messages.messages.controlCharacter]]);
    }
  });

  it('refuses numbers that are not finite: 1e400, Infinity and NaN in query and path values, 1e400 in a body', async () => {
    for (const value of ['1e400', '-1e400', 'Infinity', 'NaN']) {
      const query = await h.call({ method: 'PUT', url: `/api/App/GetAppNotes?appId=${value}`, as: ADMIN });
      expect(query.statusCode, value).toBe(400);
      expect(problem(query.body).errors, value).toEqual({ appId: [messages.messages.wholeNumber] });
      const path = await h.call({ method: 'GET', url: `/api/App/GetApp/${value}/false`, as: ADMIN });
      expect(path.statusCode, value).toBe(400);
      expect(problem(path.body).errors, value).toEqual({ id: [messages.messages.wholeNumber] });
    }
    const body = await h.call({ method: 'POST', url: '/api/App/SubmitRefund', as: ADMIN, payload: `{"appId": ${appId}, "amount": 1e400, "reason": "x"}`, headers: { 'content-type': 'application/json' } });
    expect(body.statusCode).toBe(400);
    expect(Object.keys(problem(body.body).errors ?? {})).toContain('amount');
  });

  it('refuses a __proto__ or constructor.prototype key in a multipart model with 400, as it does in a JSON body', async () => {
    const json = await h.call({ method: 'PUT', url: '/api/App/UpsertAppNote', as: ADMIN, payload: `{"__proto__": {"isAdmin": true}, "appId": ${appId}, "note": "x"}`, headers: { 'content-type': 'application/json' } });
    expect(json.statusCode).toBe(400);
    for (const model of [
      `{"__proto__": {"isAdmin": true}, "appId": ${appId}, "fileType": "ProofOfIncome"}`,
      `{"appId": ${appId}, "fileType": "ProofOfIncome", "constructor": {"prototype": {"isAdmin": true}}}`,
    ]) {
      const body = multipart([{ name: 'model', value: model }, { name: 'file', fileName: 'a.pdf', contentType: 'application/pdf', data: SAMPLE.pdf }]);
      const response = await h.call({ method: 'POST', url: '/api/App/UploadFile', as: ADMIN, payload: body.payload, headers: body.headers });
      expect(response.statusCode, model).toBe(400);
      expect(problem(response.body).errors, model).toEqual({ model: [messages.messages.invalidJson] });
    }
  });
});
