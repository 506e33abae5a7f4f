/**
 * A typed name as it is compared with the applicant's: the portal's signing, the sandbox lender's signing page and the
 * lender service's (decision 0259) compare the same way. A name compared as people see it: composed letters, one
 * space, either apostrophe, any case.
 */
export const normalName = (name: string) => name.normalize('NFC').trim().replace(/\s+/g, ' ').replace(/’/g, "'").toLocaleLowerCase();
