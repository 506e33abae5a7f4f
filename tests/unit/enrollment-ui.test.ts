/**
 * The enrollment wizard and what the engine gained for it (issue 15, decision 0148): where a wizard stands, forms that
 * edit part of a record, repeating groups and their rules, and the enrollment's own rules with the spec's words — the
 * same precompiled validators the browser runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FormScreen, WizardScreen } from '../../codegen/generated/descriptors.ts';
import * as docUpload from '../../codegen/generated/forms/OfficeDocUpload.ts';
import * as officeUpsert from '../../codegen/generated/forms/OfficeUpsert.ts';
import * as ownersUpsert from '../../codegen/generated/forms/OwnersUpsert.ts';
import { ROOT } from '../../core/contract/documents.ts';
import type { MessageCatalogue } from '../../core/messages.ts';
import { evaluate } from '../../core/expressions.ts';
import type { FormModule } from '../../src/engine/form-module.ts';
import { cleanData, concretePaths, propertyPaths, withoutIndexes } from '../../src/engine/forms/model.ts';
import { validateForm } from '../../src/engine/forms/validator.ts';
import { brokenRules, uiSchemaFor } from '../../src/engine/screens/FormScreen.tsx';
import { fieldErrorsOf } from '../../src/engine/forms/model.ts';
import { wizardPosition } from '../../src/engine/screens/WizardScreen.tsx';
import { screensFile } from '../../core/descriptors/read.ts';

const read = <T>(path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;
const catalogue = read<MessageCatalogue>('schemas/messages.json');
const wizard = screensFile<WizardScreen>('pages/enroll.json');
const owners = screensFile<FormScreen>('pages/enroll-owners.json');

const errorsOf = (module: FormModule, data: Record<string, unknown>, required: string[] = []) =>
  validateForm({ validate: module.validate, messagesAt: module.messagesAt, schema: module.schema, catalogue, hidden: new Set(), unseen: new Set(), required: new Set(required), bound: {} }, data).fieldErrors;

const ADDRESS = { streetAddress: '9 Hillside Dr', city: 'Austin', state: 'TX', zipCode: '78704' };
const owner = (extra: Record<string, unknown> = {}) => ({
  firstName: 'Maria', lastName: "O'Neil", email: 'maria@hill.example', mobilePhone: '(512) 555-0111', dob: '07/04/1976', ssn: '123-45-6789',
  ownership: 100, address: ADDRESS, ...extra,
});
const PROFILE = { id: 7, name: 'Hill Country Smiles', legalName: 'Hill Country Smiles PLLC', phone: '(512) 555-0150', timeZone: 'CT', address: { ...ADDRESS, streetAddress: '100 Congress Ave' } };

describe('where a wizard stands', () => {
  const office = (extra: Record<string, unknown>) => ({ data: { legalName: 'x', taxId: '1', category: 'Dental', businessType: 'LLC', owners: [], requiredDocuments: [], ...extra } });

  it('resumes at the first step that is not done, and keeps a person from skipping ahead', () => {
    const fresh = wizardPosition(wizard.steps, { data: null }, undefined);
    expect(wizard.steps[fresh.current]!.id).toBe('profile');
    expect(fresh.reachable(1)).toBe(false);
    // Asking for a later step does not get past one that is not done.
    expect(wizard.steps[wizardPosition(wizard.steps, office({}), 'review').current]!.id).toBe('owners');
    const half = office({ owners: [{ id: 1 }] });
    expect(wizard.steps[wizardPosition(wizard.steps, half, undefined).current]!.id).toBe('bank-info');
    // An earlier step can always be opened again.
    expect(wizard.steps[wizardPosition(wizard.steps, half, 'profile').current]!.id).toBe('profile');
  });

  it('counts the documents step done only when every required document is there', () => {
    const docs = (uploaded: boolean[]) => office({ owners: [{ id: 1 }], routingNumberLast4: '0021', accountNumberLast4: '9012', bankAccountType: 0, requiredDocuments: uploaded.map((isUploaded) => ({ isUploaded })) });
    const step = (ctx: Record<string, unknown>) => wizard.steps[wizardPosition(wizard.steps, ctx, undefined).current]!.id;
    expect(step(docs([true, false]))).toBe('docs');
    expect(step(docs([]))).toBe('docs');
    expect(step(docs([true, true]))).toBe('review');
    // Submitted: the steps that say when they are done are, so the wizard opens on the one after them.
    expect(step({ data: { ...docs([true]).data, isEnrollmentCompleted: true } })).toBe('lender-apply');
  });
});

describe('forms that edit part of a record', () => {
  it('take from a record only the properties of their schema, in groups too', () => {
    const record = { ...PROFILE, isApproved: false, owners: [{ ...owner(), last4SSN: '6789', isPhotoIdUploaded: true }], files: [] };
    expect(cleanData(officeUpsert.schema, record)).toEqual(PROFILE);
    expect(cleanData(ownersUpsert.schema, { officeId: 7, owners: record.owners })).toEqual({ officeId: 7, owners: [owner()] });
  });

  it('name a group item field without its index, and find it in each item', () => {
    expect(propertyPaths(ownersUpsert.schema)).toEqual(expect.arrayContaining(['owners', 'owners.firstName', 'owners.address.streetAddress']));
    expect(withoutIndexes('owners.1.address.city')).toBe('owners.address.city');
    expect(concretePaths({ owners: [{}, {}] }, 'owners.ssn')).toEqual(['owners.0.ssn', 'owners.1.ssn']);
    expect(fieldErrorsOf({ status: 400, problem: { errors: { 'owners.1.address.streetAddress': ['x'], nowhere: ['y'] } } }, propertyPaths(ownersUpsert.schema))).toEqual({
      'owners.1.address.streetAddress': ['x'],
    });
  });

  it('word a group from its field options, and put its item fields under the group\'s items', () => {
    const ui = uiSchemaFor(owners, ownersUpsert.schema, {}) as Record<string, Record<string, Record<string, unknown>>>;
    expect(ui.owners!['ui:title']).toBe('Owners');
    expect(ui.owners!['ui:options']).toMatchObject({ addLabel: 'Add an owner', itemTitle: 'Owner {number}' });
    expect((ui.owners!.items as Record<string, Record<string, unknown>>).ssn).toMatchObject({ 'ui:widget': 'secret', 'ui:title': 'Social Security number' });
    expect(((ui.owners!.items as Record<string, Record<string, Record<string, unknown>>>).address!.state)!['ui:widget']).toBe('configSelect');
  });
});

describe('the enrollment rules, with the words of spec §5', () => {
  it('ownership must total 100, owners must be adults, and a new owner needs date of birth and SSN', () => {
    expect(errorsOf(ownersUpsert, { officeId: 7, owners: [owner({ ownership: 60 })] })).toEqual({ owners: ['Must total to 100. Please add all owners.'] });
    expect(errorsOf(ownersUpsert, { officeId: 7, owners: [owner({ dob: '02/28/2015' })] })).toEqual({ 'owners.0.dob': ['You are under 18.'] });
    const { dob: _d, ssn: _s, ...stored } = owner();
    expect(Object.keys(errorsOf(ownersUpsert, { officeId: 7, owners: [stored] })).sort()).toEqual(['owners.0.dob', 'owners.0.ssn']);
    expect(errorsOf(ownersUpsert, { officeId: 7, owners: [{ ...stored, id: 3 }] })).toEqual({});
  });

  it("an owner's address must differ from the office street, whatever the letter case", () => {
    const data = { officeId: 7, owners: [owner({ ownership: 50 }), owner({ ownership: 50, address: { ...ADDRESS, streetAddress: '100 CONGRESS AVE' } })] };
    expect(brokenRules(owners, { data: PROFILE, form: data }, data, catalogue.messages)).toEqual({
      'owners.1.address.streetAddress': ["The owner's address must differ from the office street address."],
    });
  });

  it('checks the routing number, the account typed twice, the EIN and the web site', () => {
    const bank = { ...PROFILE, bankAccountType: 0, routingNumber: '021000022', accountNumber: '123456789012', accountNumberConfirm: '123456789013' };
    expect(errorsOf(officeUpsert, bank)).toEqual({
      routingNumber: ['This field must be a valid 9-digit routing number.'],
      accountNumberConfirm: ['This field does not match.'],
    });
    expect(errorsOf(officeUpsert, { ...bank, routingNumber: '021000021', accountNumberConfirm: '123456789012' })).toEqual({});
    expect(errorsOf(officeUpsert, { ...PROFILE, taxId: '7-41234567', website: 'hill.example' })).toEqual({
      taxId: ['This field must be a valid EIN, such as 12-3456789.'],
      website: ['This field must be a web address starting with https:// or http://.'],
    });
  });

  it('a photo-id needs its owner, and every upload a file', () => {
    expect(errorsOf(docUpload, { officeId: 7, fileType: 'PhotoId', file: 'data:application/pdf;base64,JVBERg==' })).toEqual({
      ownerId: ['Please select the owner for whom you are uploading a photo-id.'],
    });
    expect(errorsOf(docUpload, { officeId: 7, fileType: 'W9' })).toEqual({ file: ['This field is required.'] });
  });
});

describe('expressions over lists', () => {
  it('some, all and none read each item as their data; lower compares without case', () => {
    const docs = { d: [{ up: true }, { up: false }] };
    expect(evaluate({ some: [{ var: 'd' }, { var: 'up' }] }, docs)).toBe(true);
    expect(evaluate({ all: [{ var: 'd' }, { var: 'up' }] }, docs)).toBe(false);
    expect(evaluate({ none: [{ var: 'd' }, { '!': { var: 'up' } }] }, docs)).toBe(false);
    expect(evaluate({ all: [[], true] }, {})).toBe(false);
    expect(evaluate({ none: [{ var: 'missing' }, true] }, {})).toBe(true);
    expect(evaluate({ '==': [{ lower: 'Main St' }, { lower: 'MAIN st' }] }, {})).toBe(true);
  });
});
