import { describe, expect, it } from 'vitest';
import { sampleOf, type SchemaNode } from '../../core/schema-sample.ts';
import { bundleOpenApi } from '../../core/contract/bundle.ts';
import { readOperations } from '../../core/contract/operations.ts';
import { compileValidators } from '../../core/contract/validators.ts';
import { samples } from '../../codegen/generated/samples.ts';

const none = () => undefined;

describe('sample answers for the studio preview (decision 0229)', () => {
  it('fill every property with words that say they are samples, take choices in turn and keep list entries apart', () => {
    const schema: SchemaNode = {
      type: 'object',
      properties: {
        firstName: { type: 'string' },
        items: { type: 'array', items: { $ref: '#/item' } },
        note: { type: ['string', 'null'], maxLength: 6 },
        mobilePhone: { type: 'string', maxLength: 14 },
        serviceDate: { type: 'string', pattern: '^(0[1-9]|1[0-2])/(0[1-9]|[12][0-9]|3[01])/[0-9]{4}$' },
        channels: { type: 'array', uniqueItems: true, items: { enum: ['Email', 'Sms'] } },
      },
    };
    const item: SchemaNode = { type: 'object', properties: { id: { type: 'integer' }, stage: { enum: ['New', 'Funded'] }, amount: { type: 'number', maximum: 1300 } } };
    expect(sampleOf(schema, (ref) => (ref === '#/item' ? item : undefined))).toEqual({
      firstName: 'Sample first name',
      items: [
        { id: 101, stage: 'New', amount: 1250 },
        { id: 102, stage: 'Funded', amount: 1300 },
        { id: 103, stage: 'New', amount: 1300 },
      ],
      note: 'Sample',
      mobilePhone: '(555) 010-0101',
      serviceDate: '03/16/2026',
      channels: ['Email', 'Sms'],
    });
    expect(sampleOf({ oneOf: [{ type: 'null' }, { type: 'boolean' }] }, none)).toBe(true);
    expect(sampleOf({ type: 'object', additionalProperties: { type: 'integer', minimum: 500 } }, none)).toEqual({ 'Sample key': 500 });
    // The contract's example where a made-up text would be no route at all.
    expect(sampleOf({ type: ['string', 'null'], examples: [null] }, none, 'nextRoute')).toBeNull();
    expect(sampleOf({ type: 'array', items: { type: 'string', examples: ['/a', '/b'] } }, none)).toEqual(['/a', '/b', '/a']);
    expect(samples.App_GetApp).toMatchObject({ nextRoute: null });
  });

  it('are answers the contract allows, for every operation that answers JSON', () => {
    const bundled = bundleOpenApi();
    const validators = compileValidators(bundled, readOperations(bundled));
    const wrong: string[] = [];
    for (const [id, answer] of Object.entries(samples)) {
      const responses = validators.get(id)!.responses;
      const status = [...responses.keys()].filter((s) => s >= 200 && s < 300).sort()[0]!;
      const validate = responses.get(status)!;
      if (!validate(answer)) wrong.push(`${id}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    }
    expect(wrong).toEqual([]);
    expect(Object.keys(samples).length).toBeGreaterThan(80);
  });
});
