/**
 * A field typed through a mask says what is wrong in words (issue 37, item 7): a phone number cut short is 'a 10-digit
 * phone number', not 'a minimum of 14 characters' (which counts the mask's brackets and spaces) followed by 'does not
 * match'. The same precompiled validators and catalogue as the browser and the server's 400 answers.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as ownersUpsert from '../../codegen/generated/forms/OwnersUpsert.ts';
import * as sendApp from '../../codegen/generated/forms/SendApp.ts';
import * as submitApp from '../../codegen/generated/forms/SubmitApp.ts';
import { ROOT } from '../../core/contract/documents.ts';
import { filesUnder } from '../../core/files.ts';
import type { MessageCatalogue } from '../../core/messages.ts';
import type { FormModule } from '../../src/engine/form-module.ts';
import { validateForm } from '../../src/engine/forms/validator.ts';

const catalogue = JSON.parse(readFileSync(join(ROOT, 'schemas/messages.json'), 'utf8')) as MessageCatalogue;
const errorsOf = (module: FormModule, data: Record<string, unknown>) =>
  validateForm({ validate: module.validate, messagesAt: module.messagesAt, schema: module.schema, catalogue, hidden: new Set(), unseen: new Set(), required: new Set(), bound: {} }, data).fieldErrors;

const PHONE = 'This field must be a 10-digit phone number, such as (555) 123-4567.';
const DATE = 'This field must be a date written mm/dd/yyyy, such as 07/04/1990.';
const SSN = 'This field must be a 9-digit Social Security number, such as 123-45-6789.';
const ZIP = 'This field must be a 5-digit ZIP code, such as 78701 or 78701-1234.';

describe('a masked field that is not filled in', () => {
  it('says in words what a phone number, a date, a social security number and a ZIP code must be, once', () => {
    expect(errorsOf(sendApp, { officeId: 1, firstName: 'Ana', lastName: 'Peña', mobilePhone: '(512) 555-01', amount: 900 }).mobilePhone).toEqual([PHONE]);
    const owner = { firstName: 'Maria', lastName: 'Lee', email: 'm@hill.example', mobilePhone: '(512) 555-0111', dob: '07/04/19', ssn: '123-45-67', ownership: 100 };
    const errors = errorsOf(ownersUpsert, { officeId: 7, owners: [owner, { ...owner, mobilePhone: '(512', homePhone: '(512) 555-011' }] });
    expect(errors['owners.0.dob']).toEqual([DATE]);
    expect(errors['owners.0.ssn']).toEqual([SSN]);
    expect(errors['owners.1.mobilePhone']).toEqual([PHONE]);
    expect(errors['owners.1.homePhone']).toEqual([PHONE]);
    const address = { streetAddress: '1 Main St', city: 'Austin', state: 'TX', zipCode: '787' };
    const borrower = errorsOf(submitApp, { id: 0, officeId: 1, firstName: 'Ana', lastName: 'Peña', mobilePhone: '(512) 555', dob: '07/04', ssn: '12345', address });
    expect([borrower.mobilePhone, borrower.dob, borrower.ssn, borrower['address.zipCode']]).toEqual([[PHONE], [DATE], [SSN], [ZIP]]);
  });

  it('every masked property of the contract names its words for a length or pattern it fails', () => {
    const silent: string[] = [];
    for (const path of filesUnder(join(ROOT, 'schemas'), /\.json$/)) {
      const walk = (node: unknown, pointer: string) => {
        if (Array.isArray(node)) return node.forEach((child, i) => walk(child, `${pointer}/${i}`));
        if (!node || typeof node !== 'object') return;
        const schema = node as Record<string, unknown>;
        if (typeof schema['x-mask'] === 'string') {
          const own = (schema['x-messages'] ?? {}) as Record<string, string>;
          for (const keyword of ['minLength', 'maxLength', 'pattern']) {
            if (keyword in schema && !own[keyword]) silent.push(`${relative(ROOT, path)}${pointer} ${keyword}`);
          }
        }
        for (const [key, child] of Object.entries(schema)) walk(child, `${pointer}/${key}`);
      };
      walk(JSON.parse(readFileSync(path, 'utf8')), '#');
    }
    expect(silent).toEqual([]);
  });
});
