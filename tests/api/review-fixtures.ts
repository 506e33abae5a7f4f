import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { users } from '../../server/db/schema.ts';
import type { Harness } from '../support/harness.ts';
import { SAMPLE, uploadBody } from '../support/multipart.ts';

/** An office of its own for a review or bank test: enrolled and submitted through the API by a new person, its admin. */
export interface SubmittedOffice {
  officeId: number;
  admin: string;
  name: string;
  accountLast4: string;
}

export async function submittedOffice(h: Harness): Promise<SubmittedOffice> {
  const tag = randomBytes(4).toString('hex');
  const admin = `review-${tag}@review.test`;
  await h.database.db.insert(users).values({ email: admin, firstName: 'Rita', lastName: 'Reviewed', role: 'admin' });
  const name = `Review Dental ${tag}`;
  const accountNumber = `1234${String(randomBytes(3).readUIntBE(0, 3)).padStart(8, '0')}`;
  const office = await h.request(admin, 'POST', '/api/Office/UpsertOffice', {
    id: 0, name, legalName: `${name} PLLC`, phone: '(512) 555-0199', timeZone: 'CT', category: 'Dental', businessType: 'LLC', taxId: '74-1234567',
    address: { streetAddress: '2400 Congress Ave', city: 'Austin', state: 'TX', zipCode: '78701' },
    bankAccountType: 0, bankName: 'Hill Country Bank', routingNumber: '021000021', accountNumber,
  });
  expect(office.statusCode, office.body).toBe(200);
  const officeId = office.json().id as number;
  const owners = await h.request(admin, 'POST', '/api/Office/UpsertOwners', {
    officeId,
    owners: [{
      firstName: 'Maria', lastName: 'Owner', email: 'maria@review.test', mobilePhone: '(512) 555-0111', dob: '07/04/1976', ssn: '123-45-6789', ownership: 100,
      address: { streetAddress: '9 Hillside Dr', city: 'Austin', state: 'TX', zipCode: '78704' }, isPrimary: true,
    }],
  });
  expect(owners.statusCode, owners.body).toBe(200);
  // The documents an enrollment needs (decision 0148): a W-9, a voided check and the owner's photo-id.
  const described = [{ fileType: 'W9' }, { fileType: 'VoidedCheck' }, { fileType: 'PhotoId', ownerId: owners.json()[0].id as number }];
  const parts = described.map((d) => ({ name: 'files', fileName: `${d.fileType}.pdf`, contentType: 'application/pdf', data: SAMPLE.pdf }));
  const docs = uploadBody({ officeId, files: described }, parts);
  const uploaded = await h.call({ method: 'POST', url: '/api/Office/UpsertDocs', as: admin, payload: docs.payload, headers: docs.headers });
  expect(uploaded.statusCode, uploaded.body).toBe(204);
  const submitted = await h.request(admin, 'PUT', `/api/Office/SubmitOffice/${officeId}`);
  expect(submitted.statusCode, submitted.body).toBe(200);
  return { officeId, admin, name, accountLast4: accountNumber.slice(-4) };
}
