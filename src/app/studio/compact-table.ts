/** The studio's small tables (history, Try it's offers): room between columns, so '24' and '26.99%' do not run together. */
export const compactTable = {
  fontSize: 'sm',
  w: 'full',
  css: { '& th, & td': { paddingInline: '2', paddingBlock: '1', verticalAlign: 'top' }, '& th:first-of-type, & td:first-of-type': { paddingInlineStart: '0' } },
} as const;
