/**
 * Which addresses a descriptor may hand a visitor's browser (issue 36, decision 0250). The meta-schemas hold a value
 * written in a descriptor to the patterns of common.schema.json (imageSource, link, contactAddress); an expression's
 * value is known only at run time, so whatever draws a link or an image from a descriptor asks these first, with the
 * same patterns, and leaves out a value that fails. UI-free: the web app and the server ask alike.
 */
import { patternRules } from '../codegen/generated/pattern-rules.ts';

const rule = (name: keyof typeof patternRules) => new RegExp(patternRules[name].pattern, 'u');
const IMAGE = rule('imageSource');
const LINK = rule('link');
const CONTACT = rule('contactAddress');

const passing = (value: unknown, ...rules: RegExp[]): string | undefined => (typeof value === 'string' && rules.some((r) => r.test(value)) ? value : undefined);

/** The value, when a link may lead there: an https:// address or a page of the portal itself. */
export const safeLink = (value: unknown): string | undefined => passing(value, LINK);

/** The value, when a link to reach someone may lead there: as `safeLink`, or a mailto: or tel: address. */
export const safeContactLink = (value: unknown): string | undefined => passing(value, LINK, CONTACT);

/** The value, when a page may load it as an image: a file of the portal's own, or a data:image/ URL. */
export const safeImageSource = (value: unknown): string | undefined => passing(value, IMAGE);
