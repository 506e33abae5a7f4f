import { describe, expect, it } from 'vitest';
import { conditionOf, conditionWords, shownValue, simpleCondition, typedValue } from '../../src/app/studio/conditions.ts';
import { listDescriptorFiles } from '../../core/descriptors/screens.ts';

/** Every condition of the deployed descriptors: the values of `visible`, `when`, `disabled`, `enabled` and `required`. */
function deployedConditions(): unknown[] {
  const found: unknown[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (['visible', 'when', 'disabled', 'enabled', 'required'].includes(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) found.push(value);
        walk(value);
      }
    }
  };
  for (const file of listDescriptorFiles()) if (file.kind) walk(JSON.parse(file.text));
  return found;
}

describe('conditions in words (the studio, issue 41)', () => {
  it('reads a condition as checks, all or any of them, and writes them back', () => {
    const condition = { and: [{ var: 'cond.internalAdmin' }, { '!': { var: 'data.locked' } }, { '==': [{ var: 'data.stage' }, 'Funded'] }, { in: [{ var: 'data.state' }, ['NY', 'TX']] }, { '<': [{ var: 'data.amount' }, 1000] }] };
    expect(simpleCondition(condition)).toEqual({
      join: 'all',
      checks: [
        { name: 'cond.internalAdmin', test: 'set' },
        { name: 'data.locked', test: 'notSet' },
        { name: 'data.stage', test: 'is', value: 'Funded' },
        { name: 'data.state', test: 'oneOf', value: ['NY', 'TX'] },
        { name: 'data.amount', test: 'below', value: 1000 },
      ],
    });
    expect(conditionOf(simpleCondition(condition)!)).toEqual(condition);
    expect(conditionWords(condition)).toBe('cond.internalAdmin is set and data.locked is not set and data.stage is "Funded" and data.state is one of "NY", "TX" and data.amount is less than 1000');
    expect(conditionOf({ join: 'any', checks: [{ name: 'a', test: 'isNot', value: null }, { name: 'b', test: 'above', value: 2 }] })).toEqual({ or: [{ '!=': [{ var: 'a' }, null] }, { '>': [{ var: 'b' }, 2] }] });
    expect(conditionOf({ join: 'all', checks: [] })).toBeUndefined();
  });

  it('leaves a condition of another shape to its JSON', () => {
    for (const other of [{ '==': [{ var: 'a' }, { var: 'b' }] }, { if: [{ var: 'a' }, true, false] }, { and: [{ var: 'a' }] }, { and: [{ var: 'a' }, { '+': [1, 2] }] }, true, 'text']) {
      expect(simpleCondition(other), JSON.stringify(other)).toBeUndefined();
      expect(conditionWords(other)).toBeUndefined();
    }
  });

  it('takes a typed value as the kind it reads as, and shows it so', () => {
    expect([typedValue('12'), typedValue('-1.5'), typedValue('true'), typedValue('null'), typedValue('Funded'), typedValue('"12"')]).toEqual([12, -1.5, true, null, 'Funded', '12']);
    expect([shownValue(12), shownValue('Funded'), shownValue('12'), shownValue(false)]).toEqual(['12', 'Funded', '"12"', 'false']);
    for (const value of [12, 'Funded', '12', 'true', null, false]) expect(typedValue(shownValue(value))).toEqual(value);
  });

  it('writes back every condition of the deployed files it reads in words, as it was', () => {
    const conditions = deployedConditions();
    const simple = conditions.filter((c) => simpleCondition(c) !== undefined);
    // Most of the conditions people write read in words.
    expect(simple.length).toBeGreaterThan(conditions.length / 2);
    for (const condition of simple) {
      const written = conditionOf(simpleCondition(condition)!);
      // `{ "!": [x] }` and `{ "!": x }` are one condition; the studio writes the second.
      expect(JSON.stringify(written), JSON.stringify(condition)).toBe(JSON.stringify(condition).replace(/"!":\[(\{"var":"[^"]*"\})\]/g, '"!":$1'));
    }
  });
});
