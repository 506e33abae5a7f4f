/**
 * The expression language of the descriptors (docs/decisions/0040: a JSON Logic subset, data only,
 * never eval), evaluated on the server for the sandbox rules of screens/lenders/<code>.json. Only the
 * operators a rule over an applicant's facts needs: var, comparisons, and/or/not, in, if, arithmetic.
 */
export type Expression = null | boolean | number | string | Expression[] | { [operator: string]: Expression };

type Facts = Record<string, unknown>;

export class ExpressionError extends Error {}

function lookup(facts: Facts, path: unknown): unknown {
  if (typeof path !== 'string' || path === '') return facts;
  let value: unknown = facts;
  for (const part of path.split('.')) value = value && typeof value === 'object' ? (value as Facts)[part] : undefined;
  return value;
}

const truthy = (value: unknown) => (Array.isArray(value) ? value.length > 0 : Boolean(value));
const num = (value: unknown) => (typeof value === 'number' ? value : Number(value));

export function evaluate(expression: Expression, facts: Facts): unknown {
  if (expression === null || typeof expression !== 'object') return expression;
  if (Array.isArray(expression)) return expression.map((item) => evaluate(item, facts));
  const keys = Object.keys(expression);
  if (keys.length !== 1) throw new ExpressionError(`an operation has exactly one operator (got ${keys.join(', ') || 'none'})`);
  const operator = keys[0]!;
  const raw = expression[operator]!;
  const args = Array.isArray(raw) ? raw : [raw];
  const arg = (i: number) => evaluate(args[i] ?? null, facts);
  switch (operator) {
    case 'var': {
      const value = lookup(facts, arg(0));
      return value === undefined ? (args.length > 1 ? arg(1) : null) : value;
    }
    case '==':
      // eslint-disable-next-line eqeqeq
      return arg(0) == arg(1);
    case '!=':
      // eslint-disable-next-line eqeqeq
      return arg(0) != arg(1);
    case '!':
      return !truthy(arg(0));
    case '!!':
      return truthy(arg(0));
    case 'and': {
      let last: unknown = true;
      for (let i = 0; i < args.length; i++) {
        last = arg(i);
        if (!truthy(last)) return last;
      }
      return last;
    }
    case 'or': {
      let last: unknown = false;
      for (let i = 0; i < args.length; i++) {
        last = arg(i);
        if (truthy(last)) return last;
      }
      return last;
    }
    case '<':
      return args.length === 3 ? num(arg(0)) < num(arg(1)) && num(arg(1)) < num(arg(2)) : num(arg(0)) < num(arg(1));
    case '<=':
      return args.length === 3 ? num(arg(0)) <= num(arg(1)) && num(arg(1)) <= num(arg(2)) : num(arg(0)) <= num(arg(1));
    case '>':
      return num(arg(0)) > num(arg(1));
    case '>=':
      return num(arg(0)) >= num(arg(1));
    case 'in': {
      const list = arg(1);
      const item = arg(0);
      if (typeof list === 'string') return typeof item === 'string' && list.includes(item);
      return Array.isArray(list) && list.includes(item);
    }
    case 'if': {
      for (let i = 0; i + 1 < args.length; i += 2) if (truthy(arg(i))) return arg(i + 1);
      return args.length % 2 === 1 ? arg(args.length - 1) : null;
    }
    case 'cat':
      return args.map((_, i) => String(arg(i) ?? '')).join('');
    case '+':
      return args.reduce<number>((sum, _, i) => sum + num(arg(i)), 0);
    case '*':
      return args.reduce<number>((product, _, i) => product * num(arg(i)), 1);
    case '-':
      return args.length === 1 ? -num(arg(0)) : num(arg(0)) - num(arg(1));
    case '/':
      return num(arg(0)) / num(arg(1));
    case 'missing':
      return args.map((_, i) => arg(i)).filter((name) => {
        const value = lookup(facts, name);
        return value === undefined || value === null || value === '';
      });
    default:
      throw new ExpressionError(`unknown operator '${operator}'`);
  }
}

export function holds(expression: Expression, facts: Facts): boolean {
  return truthy(evaluate(expression, facts));
}
