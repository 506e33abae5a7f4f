/**
 * The browser-side check of a chosen file against the file widget's options (`accept`, `maxBytes`, `maxWidth`,
 * `maxHeight`), in the words the server uses for the same refusals (server/domain/files/uploads.ts, image-size.ts).
 * Pure.
 */
import { imageSizeProblem } from '../../core/image-size.ts';


const megabytes = (bytes: number) => `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;

/** 'application/pdf,.png,image/*' → a label such as 'PDF, PNG or JPEG' from the extensions and types listed. */
export function acceptLabel(accept: string): string {
  const names = [
    ...new Set(
      accept
        .split(',')
        .map((a) => a.trim().toLowerCase())
        .filter(Boolean)
        .map((a) => (a.startsWith('.') ? a.slice(1) : a.includes('/') ? a.split('/')[1]! : a))
        .map((a) => (a === 'jpg' ? 'jpeg' : a).toUpperCase()),
    ),
  ];
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** Does a file of this name and type match an `accept` list (extensions, exact types, 'type/*')? */
export function accepts(accept: string, name: string, type: string): boolean {
  const lowerName = name.toLowerCase();
  const lowerType = type.toLowerCase();
  return accept
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean)
    .some((a) => (a.startsWith('.') ? lowerName.endsWith(a) : a.endsWith('/*') ? lowerType.startsWith(a.slice(0, -1)) : lowerType === a));
}

/** Why this file is refused, or undefined when it may be sent. */
export function fileProblem(file: { name: string; type: string; size: number }, options: { accept?: string; maxBytes?: number }): string | undefined {
  if (file.size === 0) return 'The file is empty.';
  if (options.maxBytes && file.size > options.maxBytes) return `The file is larger than ${megabytes(options.maxBytes)}.`;
  if (options.accept && !accepts(options.accept, file.name, file.type)) return `Only ${acceptLabel(options.accept)} files are accepted.`;
  return undefined;
}

/**
 * Why an image's pixel size is refused by `maxWidth` / `maxHeight`: read from its bytes by the reader the server uses,
 * so the browser and the server never disagree about an image.
 */
export function imagePixelsProblem(bytes: Uint8Array, options: { maxWidth?: number; maxHeight?: number }): string | undefined {
  return imageSizeProblem(bytes, { width: options.maxWidth, height: options.maxHeight });
}
