/**
 * Fields that cannot take effect (issue 37): a meta-schema marks a property `x-overriddenBy` when something else shows
 * in its place — another property of the file, once set (a form's own buttons replace the submit button and its
 * label), or the wizard a page is a step of (which draws Back and Next). The studio offers no box for such a field but
 * says why and goes to the part that does show; the reference says it too.
 */
type Schema = Readonly<Record<string, unknown>>;

export interface OverrideRule {
  /** A property of the file, as a JSON pointer from its root ('/buttons'): set, it shows instead. */
  property?: string;
  /** The file is a step of a wizard, which shows instead. */
  wizardStep?: true;
  /** Why the field is not shown, in a product owner's words. */
  says: string;
}

export const overrideRules = (schema: Schema): OverrideRule[] => (Array.isArray(schema['x-overriddenBy']) ? (schema['x-overriddenBy'] as OverrideRule[]) : []);

/** The value at a JSON pointer of a document ('/buttons'). */
export function valueAt(doc: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, step) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[step] : undefined), doc);
}

/** The first of a field's rules that holds for its file: why the field cannot take effect there; none when it can. */
export function overridingRule(schema: Schema, doc: unknown, wizardStep: boolean): OverrideRule | undefined {
  return overrideRules(schema).find((rule) => (rule.wizardStep ? wizardStep : rule.property !== undefined && valueAt(doc, rule.property) !== undefined));
}
