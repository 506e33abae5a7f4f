import { _, type Ajv2020, type KeywordCxt, type Name } from 'ajv/dist/2020.js';

/**
 * The custom keywords of schemas/ (docs/decisions/0004-schema-keywords.md). Rules are emitted as
 * code, not as closures, so the same validators can be precompiled for the browser (standalone).
 */

/** Dates typed by people are mm/dd/yyyy; machine dates are yyyy-mm-dd. Both reduce to yyyymmdd. */
const ymd = (data: Name) =>
  _`(${data}.charAt(4) === "-" ? +${data}.slice(0,4)*10000 + +${data}.slice(5,7)*100 + +${data}.slice(8,10) : +${data}.slice(6,10)*10000 + +${data}.slice(0,2)*100 + +${data}.slice(3,5))`;

/**
 * "Today" is the calendar date at UTC-12, the last place on earth still on it, so a borrower in
 * any US time zone is never told that today is in the past (docs/decisions/0005-dates.md).
 */
const todayYmd = _`((d) => d.getUTCFullYear()*10000 + (d.getUTCMonth()+1)*100 + d.getUTCDate())(new Date(Date.now() - 43200000))`;

/** MM/dd/yyyy as a yyyymmdd number, for a bound written in a schema. */
function ymdOf(us: string): number {
  return Number(us.slice(6, 10)) * 10000 + Number(us.slice(0, 2)) * 100 + Number(us.slice(3, 5));
}

const todayUs = _`((d) => String(d.getUTCMonth()+1).padStart(2,"0") + "/" + String(d.getUTCDate()).padStart(2,"0") + "/" + d.getUTCFullYear())(new Date(Date.now() - 43200000))`;

export function addKeywords(ajv: Ajv2020): void {
  // x-emptyValues values are dropped before validation (server/http/bind.ts, the form engine).
  // x-labels-borrower: an enumeration's words for the borrower (decision 0190), beside x-labels, the office's.
  // x-zones: the IANA zone of each office time zone code (core/time-zones.ts, decision 0258).
  // x-roles: each office role's template of permissions (core/permissions.ts, decision 0279).
  for (const annotation of ['x-messages', 'x-emptyValues', 'x-mask', 'x-enum-varnames', 'x-labels', 'x-labels-borrower', 'x-zones', 'x-roles', 'x-widget', 'x-order', 'x-label', 'x-hint', 'x-placeholder']) {
    ajv.addKeyword({ keyword: annotation });
  }

  ajv.addKeyword({
    keyword: 'x-money',
    type: 'number',
    schemaType: 'boolean',
    error: { message: 'must have at most two decimal places' },
    code(cxt: KeywordCxt) {
      if (cxt.schema === true) cxt.fail(_`Math.abs(Math.round(${cxt.data} * 100) - ${cxt.data} * 100) > 1e-6`);
    },
  });


  ajv.addKeyword({
    keyword: 'x-notBefore',
    type: 'string',
    schemaType: 'string',
    error: {
      message: 'must not be before the bound date',
      params: ({ schema }) => _`{limit: ${schema === 'today' ? todayUs : _`${schema}`}}`,
    },
    code(cxt: KeywordCxt) {
      const bound = cxt.schema === 'today' ? todayYmd : _`${ymdOf(String(cxt.schema))}`;
      cxt.fail(_`${ymd(cxt.data)} < ${bound}`);
    },
  });

  ajv.addKeyword({
    keyword: 'x-sum',
    type: 'array',
    schemaType: 'object',
    error: {
      message: ({ schema }) => _`"must total to " + ${schema.equals}`,
      params: ({ schema }) => _`{limit: ${schema.equals}}`,
    },
    code(cxt: KeywordCxt) {
      const { property, equals } = cxt.schema as { property: string; equals: number };
      cxt.fail(_`${cxt.data}.reduce((sum, item) => sum + (Number(item && item[${property}]) || 0), 0) !== ${equals}`);
    },
  });

  ajv.addKeyword({
    keyword: 'x-minAge',
    type: 'string',
    schemaType: 'number',
    error: {
      message: ({ schema }) => _`"must be at least " + ${schema} + " years ago"`,
      params: ({ schema }) => _`{limit: ${schema}}`,
    },
    code(cxt: KeywordCxt) {
      cxt.fail(_`${ymd(cxt.data)} + ${cxt.schema} * 10000 > ${todayYmd}`);
    },
  });

  // Bank routing numbers carry an ABA check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple of 10.
  ajv.addKeyword({
    keyword: 'x-aba',
    type: 'string',
    schemaType: 'boolean',
    error: { message: 'must be a routing number with a valid check digit' },
    code(cxt: KeywordCxt) {
      if (cxt.schema !== true) return;
      const d = (i: number) => _`(${cxt.data}.charCodeAt(${i}) - 48)`;
      cxt.fail(_`/^[0-9]{9}$/.test(${cxt.data}) && (3 * (${d(0)} + ${d(3)} + ${d(6)}) + 7 * (${d(1)} + ${d(4)} + ${d(7)}) + ${d(2)} + ${d(5)} + ${d(8)}) % 10 !== 0`);
    },
  });

  // A value typed twice (an account number): it must equal the sibling property the keyword names.
  ajv.addKeyword({
    keyword: 'x-sameAs',
    schemaType: 'string',
    error: { message: ({ schema }) => _`"must equal " + ${schema}` },
    code(cxt: KeywordCxt) {
      cxt.fail(_`${cxt.data} !== ${cxt.it.parentData}[${cxt.schema as string}]`);
    },
  });
}
