import { decryptPii } from '../../crypto/pii.ts';
import { HttpProblem } from '../../http/problem.ts';
import type { Applicant } from '../../lenders/types.ts';
import type { ApplicationRecord } from '../applications/records.ts';

/** The applicant as a lender sees it; 409 when the borrower has not completed the application yet. */
export function applicantOf(app: ApplicationRecord, piiKey: Buffer): Applicant {
  if (!app.ssnEnc || !app.dobEnc || !app.streetAddress || !app.city || !app.state || !app.zipCode || app.annualIncome === null) {
    throw HttpProblem.conflict('The borrower has not completed the application yet.');
  }
  return {
    appId: app.id,
    firstName: app.firstName,
    lastName: app.lastName,
    email: app.email,
    mobilePhone: app.mobilePhone,
    homePhone: app.homePhone,
    address: { streetAddress: app.streetAddress, suiteNo: app.suiteNo, city: app.city, state: app.state, zipCode: app.zipCode },
    dob: decryptPii(piiKey, app.dobEnc),
    ssn: decryptPii(piiKey, app.ssnEnc).replace(/\D/g, ''),
    annualIncome: app.annualIncome,
    additionalIncome: app.otherIncome,
    monthlyHousingPayment: app.monthlyHousingPayment,
    employmentStatus: app.employmentStatus,
    employerName: app.employerName,
    monthsEmployed: app.employmentMonths,
    residenceStatus: app.residenceStatus,
    isActiveMilitary: app.isActiveMilitary,
    amount: app.amount,
    serviceDate: app.serviceDate,
  };
}
