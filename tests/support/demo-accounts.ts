/** The demo seed's staff accounts (server/seed/demo.ts) by what they may do. */
export const OFFICE_ADMIN = 'office.admin@demo.test'; // admin of offices 100 and 101
export const SUPPORT = 'office.support@demo.test'; // support in 100
export const TPA = 'tpa@demo.test'; // tpa in 101
export const SALES = 'sales@demo.test'; // sales in 100
export const PLATFORM = 'admin@demo.test'; // df.admin
export const DFI = 'dfi@demo.test'; // dfi.admin
export const PRODUCT_OWNER = 'owner@demo.test'; // product.owner: the studio, no office data
export const SECOND_OWNER = 'owner2@demo.test'; // product.owner: approves another owner's change (four eyes)
