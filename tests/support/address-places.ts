/**
 * Where a descriptor names an address (issue 36; decisions 0248 and 0250), found by walking the meta-schemas: the URL
 * kinds of common.schema.json and the hosts of a brand. Found from the data, so a place added later is found too.
 */
import { metaSchemas } from '../../codegen/ui-generators.ts';
import type { Json, JsonObject } from '../../core/contract/documents.ts';

/** The URL kinds of common.schema.json: a written value, or an expression whose written value follows the same rule. */
export const URL_KINDS: Record<string, 'image' | 'link' | 'contact'> = {
  imageSource: 'image',
  imageExpression: 'image',
  link: 'link',
  linkExpression: 'link',
  contactLink: 'contact',
  contactLinkExpression: 'contact',
};

export const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
export const isObject = (node: Json | undefined): node is JsonObject => !!node && typeof node === 'object' && !Array.isArray(node);

/** The URL kind a `$ref` names, if it names one. */
export function kindOfRef(ref: unknown, file: string): string | undefined {
  if (typeof ref !== 'string') return undefined;
  const [path, fragment = ''] = ref.split('#');
  const def = /^\/\$defs\/([^/]+)$/.exec(fragment)?.[1];
  return (path || file) === 'common.schema.json' && def && def in URL_KINDS ? def : undefined;
}

export interface Place {
  file: string;
  pointer: string;
  def: string;
}

/** Visits every object of the meta-schemas with its file and pointer; `skip` leaves an object's insides out. */
export function eachSchemaObject(visit: (node: JsonObject, file: string, pointer: string) => void, skip: (file: string, pointer: string) => boolean = () => false): void {
  for (const meta of metaSchemas()) {
    const walk = (node: Json, pointer: string): void => {
      if (Array.isArray(node)) return node.forEach((child, i) => walk(child, `${pointer}/${i}`));
      if (!isObject(node) || skip(meta.file, pointer)) return;
      visit(node, meta.file, pointer);
      for (const [key, child] of Object.entries(node)) walk(child, `${pointer}/${escape(key)}`);
    };
    walk(meta.schema, '#');
  }
}

/** Every schema of the meta-schemas that refers to a URL kind, outside the URL kinds' own definitions. */
export function urlPlaces(): Place[] {
  const places: Place[] = [];
  const ownDefinition = (file: string, pointer: string) => {
    const name = /^#\/\$defs\/([^/]+)$/.exec(pointer)?.[1];
    return file === 'common.schema.json' && name !== undefined && name in URL_KINDS;
  };
  eachSchemaObject((node, file, pointer) => {
    const def = kindOfRef(node.$ref, file);
    if (def) places.push({ file, pointer, def });
  }, ownDefinition);
  return places;
}

/**
 * Every property of the meta-schemas named like a place a browser or a server could be sent to (an address, a host, an
 * origin, an endpoint…), by meta-schema file and pointer: each must be a URL kind, a brand's hosts, or known as words.
 */
export function propertiesNamedLikeAddresses(): string[] {
  const found: string[] = [];
  eachSchemaObject((node, file, pointer) => {
    for (const name of Object.keys(isObject(node.properties) ? node.properties : {})) {
      if (/(url|uri|href|src|host|origin|domain|endpoint|server|webhook|callback|address|site|link)s?$/i.test(name)) found.push(`${file}${pointer}/properties/${escape(name)}`);
    }
  });
  return found;
}
