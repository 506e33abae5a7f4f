/**
 * Conditions as a product owner writes them (issue 41): checks of one value each — is set, is not set, is, is not, is
 * less or more than, is one of — all or any of them, read from and written back to the expression language. A condition
 * of another shape has no words: the studio shows its JSON.
 */
type Scalar = string | number | boolean | null;

export type Test = 'set' | 'notSet' | 'is' | 'isNot' | 'below' | 'above' | 'oneOf';

export const TEST_WORDS: Record<Test, string> = { set: 'is set', notSet: 'is not set', is: 'is', isNot: 'is not', below: 'is less than', above: 'is more than', oneOf: 'is one of' };

/** Whether a test compares with a value of the check's. */
export const comparesWith = (test: Test): boolean => test !== 'set' && test !== 'notSet';

export interface Check {
  /** The value checked, by its name in the page's data ('data.stage', 'cond.internalAdmin'). */
  name: string;
  test: Test;
  /** What it is compared with: a value, or for 'oneOf' a list of them. */
  value?: Scalar | Scalar[];
}

export interface SimpleCondition {
  join: 'all' | 'any';
  checks: Check[];
}

const OPERATORS: Partial<Record<string, Test>> = { '==': 'is', '!=': 'isNot', '<': 'below', '>': 'above', in: 'oneOf' };
const OPERATOR_OF: Record<Exclude<Test, 'set' | 'notSet'>, string> = { is: '==', isNot: '!=', below: '<', above: '>', oneOf: 'in' };

const isScalar = (value: unknown): value is Scalar => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** The name a `{ "var": name }` reads; undefined for anything else. */
const nameRead = (node: unknown): string | undefined => {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
  const entries = Object.entries(node);
  return entries.length === 1 && entries[0]![0] === 'var' && typeof entries[0]![1] === 'string' ? entries[0]![1] : undefined;
};

function checkOf(node: unknown): Check | undefined {
  const name = nameRead(node);
  if (name !== undefined) return { name, test: 'set' };
  if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
  const entries = Object.entries(node);
  if (entries.length !== 1) return undefined;
  const [operator, operand] = entries[0]!;
  const args = Array.isArray(operand) ? operand : [operand];
  if (operator === '!' && args.length === 1 && nameRead(args[0]) !== undefined) return { name: nameRead(args[0])!, test: 'notSet' };
  const test = OPERATORS[operator];
  const checked = nameRead(args[0]);
  if (!test || args.length !== 2 || checked === undefined) return undefined;
  const value = args[1];
  if (test === 'oneOf') return Array.isArray(value) && value.every(isScalar) ? { name: checked, test, value } : undefined;
  return isScalar(value) ? { name: checked, test, value } : undefined;
}

/** A condition as checks, when it is one check or all or any of several; undefined for any other shape. */
export function simpleCondition(condition: unknown): SimpleCondition | undefined {
  const one = checkOf(condition);
  if (one) return { join: 'all', checks: [one] };
  if (!condition || typeof condition !== 'object' || Array.isArray(condition)) return undefined;
  const entries = Object.entries(condition);
  if (entries.length !== 1) return undefined;
  const [operator, operand] = entries[0]!;
  if ((operator !== 'and' && operator !== 'or') || !Array.isArray(operand) || operand.length < 2) return undefined;
  const checks = operand.map(checkOf);
  return checks.every((check): check is Check => check !== undefined) ? { join: operator === 'and' ? 'all' : 'any', checks } : undefined;
}

function expressionOf(check: Check): unknown {
  const read = { var: check.name };
  if (check.test === 'set') return read;
  if (check.test === 'notSet') return { '!': read };
  return { [OPERATOR_OF[check.test]]: [read, check.test === 'oneOf' ? (Array.isArray(check.value) ? check.value : [check.value ?? null]) : Array.isArray(check.value) ? (check.value[0] ?? null) : (check.value ?? null)] };
}

/** The expression of checks; none for no check. */
export function conditionOf(condition: SimpleCondition): unknown {
  const expressions = condition.checks.map(expressionOf);
  if (expressions.length <= 1) return expressions[0];
  return { [condition.join === 'all' ? 'and' : 'or']: expressions };
}

/** A value as typed: a number, true, false or null as such, a text in quotes as that text, anything else as text. */
export function typedValue(typed: string): Scalar {
  const trimmed = typed.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  if (trimmed === 'null') return null;
  if (/^".*"$/.test(trimmed)) return trimmed.slice(1, -1);
  return typed;
}

/** A value as the field shows it: a text that would read as another kind in quotes. */
export function shownValue(value: Scalar): string {
  if (typeof value !== 'string') return String(value);
  return typeof typedValue(value) === 'string' && !/^".*"$/.test(value) ? value : `"${value}"`;
}

/** A condition in words ('data.stage is "Funded" and cond.internalAdmin is set'); undefined when it has none. */
export function conditionWords(condition: unknown): string | undefined {
  const simple = simpleCondition(condition);
  if (!simple) return undefined;
  const said = simple.checks.map((check) => {
    const value = check.value === undefined ? '' : ` ${Array.isArray(check.value) ? check.value.map((v) => JSON.stringify(v)).join(', ') : JSON.stringify(check.value)}`;
    return `${check.name} ${TEST_WORDS[check.test]}${value}`;
  });
  return said.join(simple.join === 'all' ? ' and ' : ' or ');
}
