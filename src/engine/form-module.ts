import type { SchemaError } from '../../core/descriptors/errors.ts';

/** A precompiled ajv validator (ajv standalone): sets `errors` when it answers false. */
export type PrecompiledValidator = ((data: unknown) => boolean) & { errors?: Array<SchemaError & { parentSchema?: Record<string, unknown> }> | null };

/** codegen/generated/forms/<Schema>.ts: what @rjsf renders and the validator of the full contract schema. */
export interface FormModule {
  schema: Record<string, unknown>;
  validate: PrecompiledValidator;
  /** JSON pointer of a schema object → its x-messages (the validator is compiled without ajv's `verbose`). */
  messagesAt: Record<string, Record<string, string>>;
}
