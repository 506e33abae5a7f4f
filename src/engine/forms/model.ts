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

/** The schema defaults (send-app: amount 750, enableRemoteSign false), nested objects included. */
export function defaultsOf(schema: Schema): Data {
  const out: Data = {};
  for (const [name, prop] of Object.entries(propertiesOf(schema))) {
    if (prop.default !== undefined) out[name] = structuredClone(prop.default);
    else if (isObjectSchema(prop) && prop.properties) {
      const nested = defaultsOf(prop);
      if (Object.keys(nested).length) out[name] = nested;
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

/**
 * The data sent and validated: properties not shown (`hidden` paths, dotted) and empty values are left out, so
 * '__/__/____' counts as no date on both sides (decision 0007).
 */
export function cleanData(schema: Schema, data: Data | undefined, hidden: ReadonlySet<string> = new Set(), prefix = ''): Data {
  const out: Data = {};
  const props = propertiesOf(schema);
  for (const [name, value] of Object.entries(data ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (hidden.has(path)) continue;
    const prop = props[name];
    if (prop && isObjectSchema(prop) && value && typeof value === 'object' && !Array.isArray(value)) {
      out[name] = cleanData(prop, value as Data, hidden, path);
      continue;
    }
    if (isEmptyValue(prop, value)) continue;
    out[name] = value;
  }
  return out;
}

/** Dotted paths of every property (nested objects' own properties too). */
export function propertyPaths(schema: Schema, prefix = ''): string[] {
  return Object.entries(propertiesOf(schema)).flatMap(([name, prop]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    return isObjectSchema(prop) && prop.properties ? [path, ...propertyPaths(prop, path)] : [path];
  });
}

/** The schema @rjsf renders: hidden properties removed; `required` = what the schema requires and is shown, plus `also`. */
export function displaySchemaFor(schema: Schema, hidden: ReadonlySet<string>, also: ReadonlySet<string>, prefix = ''): Schema {
  const props = propertiesOf(schema);
  const kept: Record<string, Schema> = {};
  for (const [name, prop] of Object.entries(props)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (hidden.has(path)) continue;
    kept[name] = isObjectSchema(prop) && prop.properties ? displaySchemaFor(prop, hidden, also, path) : prop;
  }
  const required = new Set(((schema.required ?? []) as string[]).filter((n) => n in kept));
  for (const name of Object.keys(kept)) if (also.has(prefix ? `${prefix}.${name}` : name)) required.add(name);
  return { ...schema, properties: kept, required: [...required] };
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

export function getIn(data: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Data)[part] : undefined), data);
}

export function setIn(data: Data, path: string, value: unknown): Data {
  const [head, ...rest] = path.split('.');
  if (!rest.length) return { ...data, [head!]: value };
  const child = (data[head!] && typeof data[head!] === 'object' ? data[head!] : {}) as Data;
  return { ...data, [head!]: setIn(child, rest.join('.'), value) };
}
