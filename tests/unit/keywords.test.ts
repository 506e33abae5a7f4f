import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { addKeywords } from '../../core/contract/keywords.ts';
import { toFieldErrors } from '../../core/messages.ts';
import { loadMessageCatalogue } from '../../core/contract/documents.ts';

const catalogue = loadMessageCatalogue();
const ajv = new Ajv2020({ allErrors: true, verbose: true });
addKeywords(ajv);

/** Dates relative to the keywords' "today" (UTC-12), as MM/dd/yyyy. */
function usDate(daysFromToday: number, yearsFromToday = 0): string {
  const d = new Date(Date.now() - 43_200_000);
  d.setUTCDate(d.getUTCDate() + daysFromToday);
  d.setUTCFullYear(d.getUTCFullYear() + yearsFromToday);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

function errorsOf(schema: object, data: unknown) {
  const validate = ajv.compile(schema);
  return validate(data) ? {} : toFieldErrors(catalogue, validate.errors ?? []);
}

describe('custom schema keywords', () => {
  const form = {
    type: 'object',
    properties: {
      serviceDate: { type: 'string', 'x-notBefore': 'today' },
      dob: { type: 'string', 'x-minAge': 18 },
      amount: { type: 'number', 'x-money': true },
      owners: { type: 'array', 'x-sum': { property: 'ownership', equals: 100 } },
    },
  };

  it('x-notBefore: today passes, yesterday fails with the date in the spec message', () => {
    expect(errorsOf(form, { serviceDate: usDate(0) })).toEqual({});
    expect(errorsOf(form, { serviceDate: usDate(30) })).toEqual({});
    expect(errorsOf(form, { serviceDate: usDate(-1) })).toEqual({ serviceDate: [`Date cannot be before ${usDate(0)}.`] });
  });

  it('x-minAge: 18 years ago today passes, a day less fails with the spec message', () => {
    expect(errorsOf(form, { dob: usDate(0, -18) })).toEqual({});
    expect(errorsOf(form, { dob: usDate(1, -18) })).toEqual({ dob: ['You are under 18.'] });
  });

  it('x-money: two decimals pass, three fail', () => {
    expect(errorsOf(form, { amount: 1234.56 })).toEqual({});
    expect(errorsOf(form, { amount: 0.1 + 0.2 })).toEqual({});
    expect(errorsOf(form, { amount: 10.005 })).toEqual({ amount: ['This field must be numeric.'] });
  });

  it('x-sum: ownership must total the bound', () => {
    expect(errorsOf(form, { owners: [{ ownership: 60 }, { ownership: 40 }] })).toEqual({});
    expect(errorsOf(form, { owners: [{ ownership: 60 }] })).toEqual({ owners: ['Must total to 100. Please add all owners.'] });
  });
});

describe('messages from the catalogue', () => {
  it('takes N from the schema bound and honours x-messages overrides', () => {
    const schema = {
      type: 'object',
      required: ['firstName'],
      properties: {
        firstName: { type: 'string', maxLength: 25, pattern: "^[A-Za-z' -]+$", 'x-messages': { pattern: 'names' } },
        code: { type: 'string', minLength: 3 },
        count: { type: 'integer' },
        email: { type: 'string', format: 'email' },
      },
      allOf: [{ anyOf: [{ required: ['email'] }, { required: ['phone'] }], 'x-messages': { anyOf: 'emailOrPhone' } }],
    };
    const withFormats = new Ajv2020({ allErrors: true, verbose: true });
    addKeywords(withFormats);
    withFormats.addFormat('email', /^[^@\s]+@[^@\s]+\.[^@\s]+$/);
    const validate = withFormats.compile(schema);
    validate({ firstName: 'R2-D2'.repeat(6), code: 'ab', count: 1.5 });
    expect(toFieldErrors(catalogue, validate.errors ?? [])).toEqual({
      firstName: ['This field exceeds 25 characters.', 'Names can only contain alphabets, spaces, hyphens and apostrophes.'],
      code: ['This field must be a minimum of 3 characters.'],
      count: ['This field must be a valid whole number.'],
      $: ['Please enter an email or phone.'],
    });
    validate({ firstName: 'Ann', email: 'not-an-address' });
    expect(toFieldErrors(catalogue, validate.errors ?? [])).toEqual({ email: ['This field must be a valid e-mail address.'] });
  });
});
