/**
 * A form generated from a file's meta-schema (decision 0228): texts, choices, numbers, yes/no, lists of words and maps
 * of words, nested objects as groups, lists of objects as a group per item (added, removed), and expressions as their
 * JSON (decision 0240), a choice between shapes (an action's kind) as a choice and then that shape's fields; what a
 * form still cannot say well is named with a pointer to the JSON tab, where every property can be edited. A part that
 * is a shared fragment ({ "$use": … }, written once in a file of fragments/ for several files) is named as such, and can be
 * written out in this file to be changed here. A field that cannot take effect in this file (x-overriddenBy) is not
 * offered: it says why and goes to the part that shows instead.
 */
import { Box, Button, chakra, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { expandFragments } from '../../../core/descriptors/fragments.ts';
import { ExpressionInput } from './ExpressionInput.tsx';
import { ConditionInput } from './ConditionInput.tsx';
import { conditionWords } from './conditions.ts';
import { UsedIn } from './UsedIn.tsx';
import { holdsSharedParts, conditionalText, overriddenField, resolve, shapeChoice, shapeOfValue, toConditionalText, toShape, type Doc, type MetaSchemas, type Part, type Place, type ShapeChoice, type SharedParts, type TextCase } from './model.ts';

type Schema = Record<string, unknown>;
type Path = readonly string[];

interface FormProps {
  schema: Schema;
  file: string;
  metas: MetaSchemas;
  value: Doc;
  onChange(path: Path, value: unknown): void;
  /** The check's problems of this file, by JSON pointer ('#/wording/service'). */
  problems: Readonly<Record<string, string[]>>;
  /** The shared parts (screens/fragments/) and the file of each, to write a use out and name where it is. */
  shared: SharedParts;
  /** The file's path under screens/ ('dialogs/app-note.json'). */
  path: string;
  /** The wizard's step, when the file is a step of a wizard. */
  step: Place | undefined;
  /** Opens a place of a file (this one or another). */
  onGoTo(place: Place): void;
  /** Where a shared part is used (its name), found in the files themselves: shown with the part in its file of fragments/. */
  usesOf?(name: string): Place[];
  /** Shows one part alone (its path in the file); the part shown alone now, if any. */
  onFocus?(path: readonly string[]): void;
  part?: readonly string[] | undefined;
}

/** The element of the form that holds the field at a path, which a 'Go to' scrolls to. */
export const placeId = (path: Path) => `studio-at-${path.join('-')}`;

const words = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
const pointerOf = (path: Path) => `#/${path.join('/')}`;

function Problems({ at, problems }: { at: string; problems: FormProps['problems'] }) {
  const own = problems[at] ?? [];
  return own.length ? (
    <Text color="fg.error" fontSize="sm" role="alert">
      {own.join(' ')}
    </Text>
  ) : null;
}

/** A group of fields (an object, a list of objects), with its hint and its own problems. */
function Group({ name, hint, at, problems, onFocus, children }: { name: string; hint: string | undefined; at: string; problems: FormProps['problems']; onFocus: (() => void) | undefined; children: React.ReactNode }) {
  return (
    <Box as="fieldset" id={placeId(at.slice(2).split('/').filter(Boolean))} borderWidth="1px" borderRadius="md" p="3">
      <chakra.legend fontWeight="semibold" fontSize="sm" px="1">
        {words(name)}
      </chakra.legend>
      {onFocus ? (
        <Button size="2xs" variant="ghost" float="right" mt="-1" onClick={onFocus} aria-label={`Edit only ${words(name)}`}>
          Edit only this
        </Button>
      ) : null}
      {hint ? (
        <Text fontSize="xs" color="fg.muted" mb="2">
          {hint}
        </Text>
      ) : null}
      <Problems at={at} problems={problems} />
      {children}
    </Box>
  );
}

function Field({ name, property, path, props }: { name: string; property: Schema; path: Path; props: FormProps }) {
  const { schema: resolved, file, text, description: hint } = resolve(property, props.file, props.metas);
  const value = path.reduce<unknown>((node, step) => (node as Doc | undefined)?.[step], props.value);
  const id = `studio-${path.join('-')}`;
  const label = (
    <chakra.label htmlFor={id} fontWeight="medium" fontSize="sm">
      {words(name)}
    </chakra.label>
  );
  const frame = (control: React.ReactNode) => (
    <Stack gap="1" id={placeId(path)}>
      {label}
      {control}
      {hint ? (
        <Text fontSize="xs" color="fg.muted">
          {hint}
        </Text>
      ) : null}
      <Problems at={pointerOf(path)} problems={props.problems} />
    </Stack>
  );
  const overridden = overriddenField(property, props.path, props.value, props.step, props.shared.fileOf);
  if (overridden) {
    return frame(
      <Stack gap="1" align="flex-start">
        <Text fontSize="sm">{overridden.says}</Text>
        <Button size="xs" variant="outline" onClick={() => props.onGoTo(overridden.goTo)}>
          Go to {overridden.goTo.words}
        </Button>
      </Stack>,
    );
  }
  if (value && typeof value === 'object' && '$use' in value) {
    const used = String((value as Doc).$use);
    return frame(
      <Stack gap="1" align="flex-start">
        <Text fontSize="sm">
          The shared part '{used}' (screens/{props.shared.fileOf.get(used) ?? 'fragments/'}), the same in every file that uses it.
        </Text>
        <Button size="xs" variant="outline" onClick={() => props.onChange(path, expandFragments(value, props.shared.parts))}>
          Write out the {words(name).toLowerCase()} here to change it
        </Button>
      </Stack>,
    );
  }
  if (Array.isArray(resolved.enum)) {
    return frame(
      <NativeSelect.Root size="sm">
        <NativeSelect.Field id={id} value={value === undefined ? '' : String(value)} onChange={(e) => props.onChange(path, e.target.value === '' ? undefined : e.target.value)}>
          <option value="">(none)</option>
          {resolved.enum.map((option) => (
            <option key={String(option)} value={String(option)}>
              {String(option)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>,
    );
  }
  if (resolved.type === 'boolean') {
    return frame(<chakra.input id={id} type="checkbox" w="4" h="4" checked={value === true} onChange={(e) => props.onChange(path, e.target.checked ? true : undefined)} />);
  }
  if (resolved.type === 'integer' || resolved.type === 'number') {
    return frame(<Input id={id} size="sm" type="number" value={typeof value === 'number' ? value : ''} onChange={(e) => props.onChange(path, e.target.value === '' ? undefined : Number(e.target.value))} />);
  }
  if ((text || resolved.type === 'string') && (value === undefined || typeof value === 'string')) {
    return frame(<Input id={id} size="sm" value={value ?? ''} onChange={(e) => props.onChange(path, e.target.value === '' ? undefined : e.target.value)} />);
  }
  const items = resolved.items as Schema | undefined;
  if (resolved.type === 'array' && items && resolve(items, file, props.metas).schema.type === 'string' && (value === undefined || Array.isArray(value))) {
    return frame(
      <Textarea
        id={id}
        size="sm"
        rows={3}
        value={((value as string[] | undefined) ?? []).join('\n')}
        onChange={(e) => props.onChange(path, e.target.value.split('\n').map((line) => line.trim()).filter(Boolean))}
      />,
    );
  }
  const itemSchema = items ? resolve(items, file, props.metas) : undefined;
  const objectItems = itemSchema && (itemSchema.schema.type === 'object' || itemSchema.schema.properties || shapeChoice(itemSchema.schema, itemSchema.file, props.metas));
  if (resolved.type === 'array' && objectItems && (value === undefined || Array.isArray(value))) {
    const list = (value as unknown[] | undefined) ?? [];
    const item = typeof itemSchema.schema.title === 'string' ? itemSchema.schema.title : 'Item';
    return (
      <Group name={name} hint={hint} at={pointerOf(path)} problems={props.problems} onFocus={props.onFocus && path.join('/') !== props.part?.join('/') ? () => props.onFocus!(path) : undefined}>
        <Stack gap="3">
          {list.map((_, index) => (
            <Stack key={index} gap="1">
              <Field name={`${item} ${index + 1}`} property={items!} path={[...path, String(index)]} props={props} />
              <Button size="xs" variant="ghost" alignSelf="flex-start" onClick={() => props.onChange(path, list.filter((_, at) => at !== index))}>
                Remove {item.toLowerCase()} {index + 1}
              </Button>
            </Stack>
          ))}
          <Button size="xs" variant="outline" alignSelf="flex-start" onClick={() => props.onChange(path, [...list, {}])}>
            Add {article(item)} {item.toLowerCase()} to {words(name).toLowerCase()}
          </Button>
        </Stack>
      </Group>
    );
  }
  const choice = shapeChoice(resolved, file, props.metas);
  if (choice && (value === undefined || (typeof value === 'object' && !Array.isArray(value)))) {
    return (
      <Group name={name} hint={hint} at={pointerOf(path)} problems={props.problems} onFocus={props.onFocus && path.join('/') !== props.part?.join('/') ? () => props.onFocus!(path) : undefined}>
        <ShapeFields choice={choice} id={id} path={path} value={value} props={props} />
      </Group>
    );
  }
  const chosen = text ? conditionalText(value) : undefined;
  if (chosen) return frame(<ConditionalText id={id} path={path} value={chosen} onChange={(next) => props.onChange(path, toConditionalText(next))} />);
  if (resolved.title === 'Expression') {
    return frame(<ExpressionInput id={id} value={value} onChange={(next) => props.onChange(path, next)} />);
  }
  if (resolved.title === 'Condition') {
    return frame(<ConditionInput id={id} value={value} onChange={(next) => props.onChange(path, next)} />);
  }
  if (resolved.type === 'object' || resolved.properties) {
    const uses = holdsSharedParts(props.path) && path.length === 2 && path[0] === 'fragments' ? props.usesOf?.(path[1]!) : undefined;
    return (
      <Group name={name} hint={hint} at={pointerOf(path)} problems={props.problems} onFocus={props.onFocus && path.join('/') !== props.part?.join('/') ? () => props.onFocus!(path) : undefined}>
        {uses ? <UsedIn uses={uses} onGoTo={props.onGoTo} lead={uses.length ? `Used in ${uses.length} place(s):` : 'Used nowhere yet.'} /> : null}
        <Fields schema={resolved} file={file} path={path} props={props} />
      </Group>
    );
  }
  return frame(
    <Text fontSize="sm" color="fg.muted">
      {value === undefined ? 'Not set.' : 'Set.'} Edit it in the JSON tab.
    </Text>,
  );
}

/** A choice between shapes: which one (by its telling property), then that shape's own fields. */
function ShapeFields({ choice, id, path, value, props }: { choice: ShapeChoice; id: string; path: Path; value: unknown; props: FormProps }) {
  const shape = shapeOfValue(choice, value);
  const selectId = `${id}-${choice.key}`;
  const own = shape ? { ...shape.schema, properties: Object.fromEntries(Object.entries((shape.schema.properties ?? {}) as Schema).filter(([name]) => name !== choice.key)) } : undefined;
  return (
    <Stack gap="3">
      <Stack gap="1">
        <chakra.label htmlFor={selectId} fontWeight="medium" fontSize="sm">
          {words(choice.key)}
        </chakra.label>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field id={selectId} value={shape ? String((value as Doc)[choice.key]) : ''} onChange={(e) => props.onChange(path, e.target.value === '' ? undefined : toShape(choice, value, e.target.value))}>
            <option value="">(none)</option>
            {choice.shapes.flatMap((s) => s.values).map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Stack>
      {own ? <Fields schema={own} file={shape!.file} path={path} props={props} /> : null}
    </Stack>
  );
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? 'an' : 'a');

/**
 * A text chosen by conditions, as a product owner reads it: for each case, when (the condition, in words where it
 * reads as some, and as its JSON) and the words shown; then the words otherwise. Cases are added and removed here.
 */
function ConditionalText({ id, path, value, onChange }: { id: string; path: Path; value: { cases: TextCase[]; otherwise: string }; onChange(value: { cases: TextCase[]; otherwise: string }): void }) {
  // Each text's place is its branch of the expression ('…/if/1'), where a search or a pick goes to.
  const branch = (index: number) => placeId([...path, 'if', String(index)]);
  const setCase = (index: number, change: Partial<TextCase>) => onChange({ ...value, cases: value.cases.map((c, i) => (i === index ? { ...c, ...change } : c)) });
  return (
    <Stack gap="2" borderStartWidth="2px" ps="2">
      {value.cases.map((c, index) => {
        const said = conditionWords(c.when);
        return (
          <Stack key={index} gap="1">
            <chakra.label htmlFor={`${id}-when-${index}`} fontSize="sm">
              When{said ? `: ${said}` : ''}
            </chakra.label>
            <ConditionInput id={`${id}-when-${index}`} value={c.when} onChange={(when) => setCase(index, { when: when ?? false })} />
            <Stack gap="1" id={branch(2 * index + 1)}>
              <chakra.label htmlFor={`${id}-text-${index}`} fontSize="sm">
                Show
              </chakra.label>
              <Input id={`${id}-text-${index}`} size="sm" value={c.text} onChange={(e) => setCase(index, { text: e.target.value })} />
            </Stack>
            {value.cases.length > 1 ? (
              <Button size="xs" variant="ghost" alignSelf="flex-start" onClick={() => onChange({ ...value, cases: value.cases.filter((_, i) => i !== index) })}>
                Remove this case
              </Button>
            ) : null}
          </Stack>
        );
      })}
      <Stack gap="1" id={branch(2 * value.cases.length)}>
        <chakra.label htmlFor={`${id}-otherwise`} fontSize="sm">
          Otherwise show
        </chakra.label>
        <Input id={`${id}-otherwise`} size="sm" value={value.otherwise} onChange={(e) => onChange({ ...value, otherwise: e.target.value })} />
      </Stack>
      <Button size="xs" variant="outline" alignSelf="flex-start" onClick={() => onChange({ ...value, cases: [...value.cases, { when: false, text: value.otherwise }] })}>
        Add a case
      </Button>
    </Stack>
  );
}

/** The properties of an object schema, and — for a map of words — each entry it holds plus one to add. */
function Fields({ schema, file, path, props }: { schema: Schema; file: string; path: Path; props: FormProps }) {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>).filter(([name]) => name !== '$schema' && name !== 'format' && name !== 'kind');
  const value = (path.reduce<unknown>((node, step) => (node as Doc | undefined)?.[step], props.value) ?? {}) as Doc;
  const extra = schema.additionalProperties && typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as Schema) : undefined;
  const known = new Set(properties.map(([name]) => name));
  const others = extra ? Object.keys(value).filter((name) => !known.has(name)) : [];
  return (
    <Stack gap="3">
      {properties.map(([name, property]) => (
        <Field key={name} name={name} property={property} path={[...path, name]} props={{ ...props, file }} />
      ))}
      {others.map((name) => (
        <Field key={name} name={name} property={extra!} path={[...path, name]} props={{ ...props, file }} />
      ))}
      {extra ? <AddEntry path={path} entry={resolve(extra, file, props.metas).schema} onChange={props.onChange} /> : null}
    </Stack>
  );
}

/** A new entry of a map: a word (its name, as the word to translate), or a group (a state's rule) to fill in. */
function AddEntry({ path, entry, onChange }: { path: Path; entry: Schema; onChange: FormProps['onChange'] }) {
  const id = `studio-add-${path.join('-')}`;
  const word = entry.type === 'string';
  if (!word && entry.type !== 'object') return null;
  const what = typeof entry.title === 'string' ? words(entry.title).toLowerCase() : 'entry';
  return (
    <Stack gap="1">
      <chakra.label htmlFor={id} fontSize="sm">
        {word ? 'Add a word (its name, then Enter)' : `Add a ${what} (its name, then Enter)`}
      </chakra.label>
      <Input
        id={id}
        size="sm"
        placeholder="name"
        onKeyDown={(e) => {
          const name = e.currentTarget.value.trim();
          if (e.key !== 'Enter' || !name) return;
          onChange([...path, name], word ? name : {});
          e.currentTarget.value = '';
        }}
      />
    </Stack>
  );
}

/** The file's form: the whole file, or only the part a product owner went to (one part at a time). */
export function SchemaForm({ shown, ...props }: FormProps & { shown?: Part | undefined }) {
  if (shown) return <Field name={shown.name} property={shown.property} path={shown.path} props={{ ...props, file: shown.file, part: shown.path }} />;
  return <Fields schema={props.schema} file={props.file} path={[]} props={props} />;
}
