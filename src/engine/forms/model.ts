/**
 * Form data rules that are not @rjsf's business, pure so they are unit-tested: defaults, which values count as
 * empty (x-emptyValues, '' and the mask placeholders), hidden fields, the rendered (display) schema and the field
 * error map → @rjsf error schema.
 */
type Schema = Record<string, unknown>;
type Data = Record<string, unknown>;

const propertiesOf = (schema: Schema | undefined) => (schema?.properties ?? {}) as Record<string, Schema>;

export function isObjectSchema(schema: Schema | undefined): boolean {
  return !!schema && (schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || !!schema.properties);
}

/**
 * The schema defaults (send-app: amount 750, enableRemoteSign false), nested objects included. A required nested
 * object starts empty rather than absent, so its own required fields say so each at its place.
 */
export function defaultsOf(schema: Schema): Data {
  const out: Data = {};
  const required = (schema.required ?? []) as string[];
  for (const [name, prop] of Object.entries(propertiesOf(schema))) {
    if (prop.default !== undefined) out[name] = structuredClone(prop.default);
    else if (isObjectSchema(prop) && prop.properties) {
      const nested = defaultsOf(prop);
      if (Object.keys(nested).length || required.includes(name)) out[name] = nested;
    }
  }
  return out;
}

/** Is `value` "not given" for this property? undefined, null, '', or one of its x-emptyValues ('__/__/____'). */
export function isEmptyValue(prop: Schema | undefined, value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  const empties = prop?.['x-emptyValues'];
  return Array.isArray(empties) && empties.includes(value as never);
}

/** The item schema of an array of objects (a repeating group such as the owners), or undefined. */
export function itemsOf(schema: Schema | undefined): Schema | undefined {
  const items = schema && (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) ? (schema.items as Schema | undefined) : undefined;
  return items && isObjectSchema(items) ? items : undefined;
}

/**
 * The data sent and validated: properties not shown (`hidden` paths, dotted; an item's path has no index) and empty
 * values are left out, so '__/__/____' counts as no date on both sides (decision 0007). A closed object sends only
 * the properties its schema has: a form that starts from a record (`from`) carries none of the record's other fields.
 */
export function cleanData(schema: Schema, data: Data | undefined, hidden: ReadonlySet<string> = new Set(), prefix = ''): Data {
  const out: Data = {};
  const props = propertiesOf(schema);
  const closed = schema.additionalProperties === false;
  for (const [name, value] of Object.entries(data ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (hidden.has(path)) continue;
    const prop = props[name];
    if (!prop && closed) continue;
    if (prop && isObjectSchema(prop) && value && typeof value === 'object' && !Array.isArray(value)) {
      out[name] = cleanData(prop, value as Data, hidden, path);
      continue;
    }
    const items = itemsOf(prop);
    if (items && Array.isArray(value)) {
      out[name] = value.map((item) => (item && typeof item === 'object' ? cleanData(items, item as Data, hidden, path) : item));
      continue;
    }
    if (isEmptyValue(prop, value)) continue;
    out[name] = value;
  }
  return out;
}

/** Dotted paths of every property: nested objects' own properties too, and a group's item properties without index. */
export function propertyPaths(schema: Schema, prefix = ''): string[] {
  return Object.entries(propertiesOf(schema)).flatMap(([name, prop]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    const nested = isObjectSchema(prop) && prop.properties ? prop : itemsOf(prop);
    return nested ? [path, ...propertyPaths(nested, path)] : [path];
  });
}

/** 'owners.0.address.city' → 'owners.address.city': the path a field descriptor uses for every item. */
export const withoutIndexes = (path: string) => path.split('.').filter((part) => !/^\d+$/.test(part)).join('.');

/** The schema @rjsf renders: hidden properties removed; `required` = what the schema requires and is shown, plus `also`. */
export function displaySchemaFor(schema: Schema, hidden: ReadonlySet<string>, also: ReadonlySet<string>, prefix = ''): Schema {
  const props = propertiesOf(schema);
  const kept: Record<string, Schema> = {};
  for (const [name, prop] of Object.entries(props)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (hidden.has(path)) continue;
    const items = itemsOf(prop);
    kept[name] = isObjectSchema(prop) && prop.properties ? displaySchemaFor(prop, hidden, also, path) : items ? { ...prop, items: displaySchemaFor(items, hidden, also, path) } : prop;
  }
  const required = new Set(((schema.required ?? []) as string[]).filter((n) => n in kept));
  for (const name of Object.keys(kept)) if (also.has(prefix ? `${prefix}.${name}` : name)) required.add(name);
  return { ...schema, properties: kept, required: [...required] };
}

/** The schema with the words people read — titles and enumeration words (x-labels) — passed through `words`. */
export function schemaInWords(schema: Schema, words: (source: string) => string): Schema {
  const out: Schema = { ...schema };
  if (typeof schema.title === 'string') out.title = words(schema.title);
  const labels = schema['x-labels'] as Record<string, string> | undefined;
  if (labels) out['x-labels'] = Object.fromEntries(Object.entries(labels).map(([value, label]) => [value, words(label)]));
  const props = schema.properties as Record<string, Schema> | undefined;
  if (props) out.properties = Object.fromEntries(Object.entries(props).map(([name, prop]) => [name, schemaInWords(prop, words)]));
  const items = itemsOf(schema);
  if (items) out.items = schemaInWords(items, words);
  return out;
}

export interface ErrorSchemaNode {
  __errors?: string[];
  [field: string]: ErrorSchemaNode | string[] | undefined;
}

/** {'address.city': ['…'], '$': ['…']} → {address: {city: {__errors: ['…']}}, __errors: ['…']} */
export function toErrorSchema(fieldErrors: Record<string, string[]>): ErrorSchemaNode {
  const root: ErrorSchemaNode = {};
  for (const [field, messages] of Object.entries(fieldErrors)) {
    let node = root;
    if (field !== '$') {
      for (const part of field.split('.')) node = (node[part] ??= {}) as ErrorSchemaNode;
    }
    node.__errors = [...(node.__errors ?? []), ...messages];
  }
  return root;
}

/** The paths a descriptor path names in this data: one per item of each group it goes through ('owners.0.dob', …). */
export function concretePaths(data: unknown, path: string): string[] {
  let found: Array<{ at: string; node: unknown }> = [{ at: '', node: data }];
  for (const part of path.split('.')) {
    found = found.flatMap(({ at, node }) => {
      const here = (name: string) => ({ at: at ? `${at}.${name}` : name, node: node && typeof node === 'object' ? (node as Data)[name] : undefined });
      if (!Array.isArray(node)) return [here(part)];
      return node.map((item, i) => ({ at: at ? `${at}.${i}.${part}` : `${i}.${part}`, node: item && typeof item === 'object' ? (item as Data)[part] : undefined }));
    });
  }
  return found.map((f) => f.at);
}

export function getIn(data: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Data)[part] : undefined), data);
}

export function setIn(data: Data, path: string, value: unknown): Data {
  const [head, ...rest] = path.split('.');
  if (!rest.length) return { ...data, [head!]: value };
  const child = (data[head!] && typeof data[head!] === 'object' ? data[head!] : {}) as Data;
  return { ...data, [head!]: setIn(child, rest.join('.'), value) };
}

/** The field errors of a 400 answer (problem details' `errors`) that name fields of the form ('owners.1.dob' too), if any. */
export function fieldErrorsOf(error: unknown, fields: readonly string[]): Record<string, string[]> | undefined {
  const { status, problem } = (error ?? {}) as { status?: unknown; problem?: { errors?: unknown } };
  const errors = problem?.errors;
  if (status !== 400 || !errors || typeof errors !== 'object') return undefined;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors as Record<string, unknown>)) {
    if (fields.includes(withoutIndexes(field)) && Array.isArray(messages)) out[field] = messages.map(String);
  }
  return Object.keys(out).length ? out : undefined;
}
