import { _, type Ajv2020, type KeywordCxt } from 'ajv/dist/2020.js';

/**
 * The custom keywords of schemas/ (docs/decisions/0004-schema-keywords.md). Rules are emitted as
 * code, not as closures, so the same validators can be precompiled for the browser (standalone).
 */

/** Dates typed by people are mm/dd/yyyy; machine dates are yyyy-mm-dd. Both reduce to yyyymmdd. */
const ymd = (data: unknown) =>
  _`(${data}.charAt(4) === "-" ? +${data}.slice(0,4)*10000 + +${data}.slice(5,7)*100 + +${data}.slice(8,10) : +${data}.slice(6,10)*10000 + +${data}.slice(0,2)*100 + +${data}.slice(3,5))`;

/**
 * "Today" is the calendar date at UTC-12, the last place on earth still on it, so a borrower in
 * any US time zone is never told that today is in the past (docs/decisions/0005-dates.md).
 */
const todayYmd = _`((d) => d.getUTCFullYear()*10000 + (d.getUTCMonth()+1)*100 + d.getUTCDate())(new Date(Date.now() - 43200000))`;

export function addKeywords(ajv: Ajv2020): void {
  for (const annotation of ['x-messages', 'x-mask', 'x-enum-varnames', 'x-widget', 'x-order', 'x-label', 'x-hint', 'x-placeholder']) {
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
    keyword: 'x-emptyValues',
    type: 'string',
    schemaType: 'array',
    // An empty value is valid by definition; the other keywords of the schema must let it through.
    code() {},
  });

  ajv.addKeyword({
    keyword: 'x-notBefore',
    type: 'string',
    schemaType: 'string',
    error: {
      message: 'must not be before today',
      params: () => _`{limit: "today"}`,
    },
    code(cxt: KeywordCxt) {
      const empty = (cxt.parentSchema['x-emptyValues'] ?? []) as string[];
      cxt.fail(_`${cxt.data} !== "" && !${JSON.stringify(empty)}.includes(${cxt.data}) && ${ymd(cxt.data)} < ${todayYmd}`);
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
}
