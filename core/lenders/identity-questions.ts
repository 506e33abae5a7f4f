import { randomBytes, randomInt } from 'node:crypto';
import type { Applicant, KbaQuestionDraft } from './terms.ts';

/**
 * The sandbox lenders' identity questions (knowledge-based authentication), made from the applicant's own data: the
 * in-process sandbox adapter and the lender service (decision 0259) ask the same ones.
 */

const STREET_NAMES = [
  'Oak St', 'Maple Ave', 'Cedar Ln', 'Elm Dr', 'Pine Ct', 'Willow Way', 'Birch Rd', 'Lakeview Dr', 'Sunset Blvd', 'Park Ave',
  'Hillcrest Rd', 'Ridge Rd', 'Meadow Ln', 'River Rd', 'Forest Dr', 'Highland Ave', 'Church St', 'Mill St', 'Spring St', 'Valley View Dr',
];
const CITIES = [
  'Austin', 'Dallas', 'Houston', 'San Antonio', 'Denver', 'Phoenix', 'Tucson', 'Orlando', 'Tampa', 'Miami', 'Atlanta', 'Nashville',
  'Boise', 'Portland', 'Seattle', 'Chicago', 'Columbus', 'Charlotte', 'Raleigh', 'Omaha', 'Honolulu', 'Sacramento', 'Reno', 'Tulsa',
];

function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

const choiceId = () => randomBytes(6).toString('base64url');

/** A question whose right answer is `right` among `wrong` plausible others, in random order. */
function question(id: string, text: string, right: string, wrong: string[]): KbaQuestionDraft {
  const seen = new Set([right.toLowerCase()]);
  const others: string[] = [];
  for (const candidate of shuffle(wrong)) {
    if (others.length === 3) break;
    if (seen.has(candidate.toLowerCase())) continue;
    seen.add(candidate.toLowerCase());
    others.push(candidate);
  }
  const choices = shuffle([right, ...others]).map((text) => ({ id: choiceId(), text }));
  const answer = choices.find((choice) => choice.text === right)!;
  return { id, text, choices, answerId: answer.id };
}

/** The street part of an address line: '1234 Oak St Apt 5' → 'Oak St Apt 5'. */
export function streetName(line: string): string {
  return line.trim().replace(/^\d+[A-Za-z]?\s+/, '').replace(/\s+/g, ' ');
}

function nearbyZips(zip: string): string[] {
  const base = Number(zip.slice(0, 5));
  const out: string[] = [];
  for (const delta of [3, -5, 11, -17, 23, 41]) {
    const value = base + delta;
    if (value > 500 && value < 99_999) out.push(String(value).padStart(5, '0'));
  }
  return out;
}

export function sandboxKba(applicant: Applicant): KbaQuestionDraft[] {
  const street = streetName(applicant.address.streetAddress);
  const birthYear = Number(applicant.dob.slice(0, 4));
  const zip = applicant.address.zipCode.slice(0, 5);
  return [
    question('street', 'Which of these streets is part of an address you have lived at?', street, STREET_NAMES),
    question('city', 'In which of these cities have you had an address?', applicant.address.city, CITIES),
    question('birthYear', 'In which year were you born?', String(birthYear), [1, 2, 3, -1, -2, -4].map((d) => String(birthYear + d))),
    question('zip', 'Which of these ZIP codes is associated with your address?', zip, nearbyZips(zip)),
  ];
}
