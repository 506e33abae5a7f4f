/**
 * A studio publication live while the phone bench measures (issue 18 item 3: publishing costs the borrower's first
 * screen nothing): the product owner changes the default brand's word, as the studio would (Studio_Publish), and the
 * files as deployed are made live again afterwards (Studio_Rollback to 0).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { components } from '../codegen/generated/api.ts';
import { API_KEY } from './scenarios.ts';

type Schemas = components['schemas'];

/** A call to the studio's API; `ca` is the certificate of a portal serving its own https (self-signed). */
function call(base: string, token: string, path: string, body: unknown, ca: Buffer | undefined): Promise<unknown> {
  const url = new URL(`${base}/api/Studio/${path}`);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = { authorization: `Bearer ${token}`, 'x-api-key': API_KEY, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) };
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: payload === undefined ? 'GET' : 'POST', headers, ca }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        if ((response.statusCode ?? 0) >= 300) reject(new Error(`Studio/${path} answered ${response.statusCode}: ${text}`));
        else resolve(JSON.parse(text));
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** Publishes the default brand with another word for the service; resolves to the undo. */
export async function publishBrandWord(base: string, token: string, ca?: Buffer): Promise<{ hash: string; undo: () => Promise<void> }> {
  const { files } = (await call(base, token, 'GetFiles', undefined, ca)) as Schemas['StudioFiles'];
  const brand = files.find((file) => file.path.startsWith('brands/') && file.doc.default === true);
  if (!brand) throw new Error('no default brand among the studio files');
  const wording = { ...(brand.doc.wording as Record<string, unknown>), service: 'Procedure' };
  const published = (await call(base, token, 'Publish', { files: { [brand.path]: { ...brand.doc, wording } }, note: 'Bench: a brand word, live while the phone is measured', publishOutOfDate: true }, ca)) as Schemas['StudioPublication'];
  return {
    hash: published.hash,
    undo: async () => void (await call(base, token, 'Rollback', { id: 0, note: 'Bench: the files as deployed again' }, ca)),
  };
}
