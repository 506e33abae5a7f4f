/**
 * The body of a multipart/form-data operation (spec §7: UploadFile, UploadDoc, UpsertDocs, UpsertLandingPage) from
 * the plain object a form or an action produces. Pure.
 *
 * - A file value — a Blob/File, or the data URL the file widget makes (`data:<type>;name=<file name>;base64,…`) —
 *   becomes a file part named after its property; an array of them, repeated parts of that name ('files').
 * - Every other value goes into the one JSON part `model` (spec §7: 'file' and JSON 'model'); a `model` object in the
 *   body is its base. Empty values (undefined, null, '') are left out of it.
 */

/** A data URL of the file widget, or any base64 data URL. */
const DATA_URL = /^data:([^;,]*)((?:;[^;,=]+=[^;,]*)*);base64,(.*)$/s;

export function isFileValue(value: unknown): boolean {
  return (typeof Blob !== 'undefined' && value instanceof Blob) || (typeof value === 'string' && DATA_URL.test(value));
}

/** A data URL as a Blob with the file name it carries (`;name=`), or null when the text is no base64 data URL. */
export function fileFromDataUrl(text: string): { blob: Blob; name: string } | null {
  const match = DATA_URL.exec(text);
  if (!match) return null;
  const [, type, params, data] = match;
  let name = 'file';
  for (const param of params!.split(';').filter(Boolean)) {
    const [key, ...rest] = param.split('=');
    if (key === 'name') {
      try {
        name = decodeURIComponent(rest.join('='));
      } catch {
        name = rest.join('=');
      }
    }
  }
  const binary = atob(data!);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return { blob: new Blob([bytes], { type: type || 'application/octet-stream' }), name };
}

function appendFile(form: FormData, name: string, value: unknown): void {
  if (typeof value === 'string') {
    const file = fileFromDataUrl(value);
    if (file) form.append(name, file.blob, file.name);
    return;
  }
  const blob = value as Blob;
  form.append(name, blob, (blob as File).name ?? 'file');
}

export function toMultipart(body: Record<string, unknown>): FormData {
  const form = new FormData();
  const base = body.model;
  const model: Record<string, unknown> = base && typeof base === 'object' && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
  for (const [name, value] of Object.entries(body)) {
    if (name === 'model') continue;
    if (isFileValue(value)) appendFile(form, name, value);
    else if (Array.isArray(value) && value.length > 0 && value.every(isFileValue)) for (const item of value) appendFile(form, name, item);
    else if (value !== undefined && value !== null && value !== '') model[name] = value;
  }
  form.append('model', JSON.stringify(model));
  return form;
}
