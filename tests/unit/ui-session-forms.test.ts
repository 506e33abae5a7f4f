import { describe, expect, it } from 'vitest';
import { decryptState, encryptState, generateSessionKey } from '../../src/app/session/crypto.ts';
import { EMPTY_SESSION } from '../../src/app/session/state.ts';
import * as sendApp from '../../codegen/generated/forms/SendApp.ts';
import * as submitApp from '../../codegen/generated/forms/SubmitApp.ts';
import messages from '../../schemas/messages.json';
import type { MessageCatalogue } from '../../core/messages.ts';
import type { FormModule } from '../../src/engine/form-module.ts';
import { validateForm, type FormRules } from '../../src/engine/forms/validator.ts';
import { cleanData, defaultsOf, displaySchemaFor, toErrorSchema } from '../../src/engine/forms/model.ts';

describe('the encrypted session state', () => {
  it('round-trips through AES-GCM and refuses tampered or foreign text', async () => {
    const key = await generateSessionKey();
    const sealed = await encryptState(key, { ...EMPTY_SESSION, authenticated: true, officeId: 3 });
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(sealed).not.toContain('officeId');
    expect(await decryptState(key, sealed)).toMatchObject({ authenticated: true, officeId: 3 });
    const flipped = sealed.slice(0, -4) + (sealed.at(-4) === 'A' ? 'B' : 'A') + sealed.slice(-3);
    expect(await decryptState(key, flipped)).toBeUndefined();
    expect(await decryptState(await generateSessionKey(), sealed)).toBeUndefined();
    expect(await decryptState(key, '{"authenticated":true}')).toBeUndefined();
    expect(await decryptState(key, null)).toBeUndefined();
  });

  it('uses a key script cannot read', async () => {
    const key = await generateSessionKey();
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
  });
});

const catalogue = messages as unknown as MessageCatalogue;
const send = sendApp as unknown as FormModule;

function rules(module: FormModule, over: Partial<FormRules> = {}): FormRules {
  return { validate: module.validate, messagesAt: module.messagesAt, schema: module.schema, catalogue, hidden: new Set(), unseen: new Set(['officeId']), required: new Set(), bound: { officeId: 1 }, ...over };
}

const mmddyyyy = (d: Date) => `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;

describe('the send-application form (spec §5), with the precompiled validator', () => {
  const valid = { firstName: "Mary-Jo O'Neil", lastName: 'Smith', email: 'mary@example.test', amount: 750 };

  it("takes names as people write them, with the browser's own precompiled validator (issue 37)", () => {
    for (const [firstName, lastName] of [['Lucía', 'Peña'], ['Zoë', 'O’Brien'], ['Nguyễn', 'Văn Anh']]) {
      expect(validateForm(rules(send), { ...valid, firstName, lastName }).fieldErrors, `${firstName} ${lastName}`).toEqual({});
    }
    expect(validateForm(rules(send), { ...valid, firstName: 'Ana3' }).fieldErrors.firstName).toEqual(['Names can only contain alphabets, spaces, hyphens and apostrophes.']);
  });

  it('starts from the schema defaults: amount 750, remote sign off', () => {
    expect(defaultsOf(send.schema)).toEqual({ amount: 750, enableRemoteSign: false });
  });

  it('accepts a complete form', () => {
    expect(validateForm(rules(send), valid).fieldErrors).toEqual({});
  });

  it('words every rule with the catalogue, N from the schema', () => {
    const { fieldErrors } = validateForm(rules(send), { firstName: 'J0hn', lastName: 'x'.repeat(26), email: 'not-an-email', mobilePhone: '(512) 555', amount: 20 });
    expect(fieldErrors).toEqual({
      firstName: ['Names can only contain alphabets, spaces, hyphens and apostrophes.'],
      lastName: ['This field exceeds 25 characters.'],
      email: ['This field must be a valid e-mail address.'],
      mobilePhone: ['This field must be a 10-digit phone number, such as (555) 123-4567.'],
      amount: ['This field must have a minimum value of 25'],
    });
    expect(validateForm(rules(send), { ...valid, amount: 40001 }).fieldErrors).toEqual({ amount: ['This field must have a maximum value of 40000'] });
  });

  it('asks for the names, and for an email or a phone', () => {
    const { fieldErrors } = validateForm(rules(send), { amount: 750 });
    expect(fieldErrors).toEqual({
      firstName: ['This field is required.'],
      lastName: ['This field is required.'],
      $: ['Please enter an email or phone.'],
    });
  });

  it('requires the channel the popup enables', () => {
    const { fieldErrors } = validateForm(rules(send, { required: new Set(['mobilePhone']) }), { ...valid, email: undefined });
    expect(fieldErrors.mobilePhone).toEqual(['This field is required.']);
  });

  it("treats '__/__/____' and '(___) ___-____' as empty and refuses a date before today", () => {
    expect(validateForm(rules(send), { ...valid, serviceDate: '__/__/____', mobilePhone: '(___) ___-____' }).fieldErrors).toEqual({});
    const yesterday = new Date(Date.now() - 3 * 86_400_000);
    const today = mmddyyyy(new Date(Date.now() - 43_200_000));
    expect(validateForm(rules(send), { ...valid, serviceDate: mmddyyyy(yesterday) }).fieldErrors).toEqual({ serviceDate: [`Date cannot be before ${today}.`] });
    expect(validateForm(rules(send), { ...valid, serviceDate: '12/31/2099' }).fieldErrors).toEqual({});
  });

  it('reports errors of fields the user cannot see for the whole form', () => {
    const { fieldErrors } = validateForm(rules(send, { bound: {} }), valid);
    expect(fieldErrors).toEqual({ $: ['This field is required.'] });
  });

  it('leaves hidden and empty fields out of the data sent', () => {
    const data = cleanData(send.schema, { ...valid, email: '', serviceDate: '__/__/____', mobilePhone: '(512) 555-0142' }, new Set(['mobilePhone']));
    expect(data).toEqual({ firstName: "Mary-Jo O'Neil", lastName: 'Smith', amount: 750 });
  });

  it('renders without cross-field combinators, hidden fields removed, conditional requirements added', () => {
    const display = displaySchemaFor(send.schema, new Set(['email']), new Set(['mobilePhone']));
    expect(display.allOf).toBeUndefined();
    expect(Object.keys(display.properties as object)).not.toContain('email');
    expect(display.required).toEqual(['officeId', 'firstName', 'lastName', 'amount', 'mobilePhone']);
  });

  it('maps field errors to the @rjsf error schema', () => {
    expect(toErrorSchema({ 'address.city': ['a'], $: ['b'] })).toEqual({ address: { city: { __errors: ['a'] } }, __errors: ['b'] });
  });

  it('checks nested objects and the age rule of the pre-qualification form', () => {
    const prequal = submitApp as unknown as FormModule;
    const { fieldErrors } = validateForm(rules(prequal, { bound: { id: 0, officeId: 1 } }), {
      firstName: 'A', lastName: 'B', address: { streetAddress: '1 Main', city: 'Austin', state: 'TX', zipCode: '7870' }, dob: mmddyyyy(new Date()),
      ssn: '123-45-6789', annualIncome: 50000, employmentStatus: 'EmployedFull', amount: 500, agreeToTerms: false, mobilePhone: '(512) 555-0142',
    });
    expect(fieldErrors['address.zipCode']).toEqual(['This field must be a 5-digit ZIP code, such as 78701 or 78701-1234.']);
    expect(fieldErrors.dob).toEqual(['You are under 18.']);
    expect(fieldErrors.agreeToTerms).toEqual(['Must be checked.']);
  });
});
