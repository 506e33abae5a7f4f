/**
 * A studio publication live while the phone bench measures (issue 18 item 3: publishing costs the borrower's first
 * screen nothing): the product owner changes the default brand's word, as the studio would (Studio_Publish), and the
 * files as deployed are made live again afterwards (Studio_Rollback to 0).
 */
import type { components } from '../codegen/generated/api.ts';
import { API_KEY } from './scenarios.ts';

type Schemas = components['schemas'];

async function call(base: string, token: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${base}/api/Studio/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-api-key': API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`Studio/${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Publishes the default brand with another word for the service; resolves to the undo. */
export async function publishBrandWord(base: string, token: string): Promise<{ hash: string; undo: () => Promise<void> }> {
  const { files } = (await call(base, token, 'GetFiles')) as Schemas['StudioFiles'];
  const brand = files.find((file) => file.path.startsWith('brands/') && file.doc.default === true);
  if (!brand) throw new Error('no default brand among the studio files');
  const wording = { ...(brand.doc.wording as Record<string, unknown>), service: 'Procedure' };
  const published = (await call(base, token, 'Publish', { files: { [brand.path]: { ...brand.doc, wording } }, note: 'Bench: a brand word, live while the phone is measured' })) as Schemas['StudioPublication'];
  return {
    hash: published.hash,
    undo: async () => void (await call(base, token, 'Rollback', { id: 0, note: 'Bench: the files as deployed again' })),
  };
}
