/**
 * The pixel size a PNG or JPEG declares in its header, read from the bytes alone — no decoder — so that the server
 * and the browser's file widget judge an image by the same reading. Pure; Node's Buffer and the browser's Uint8Array
 * alike.
 */

export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;

/** PNG: the IHDR chunk comes first (width and height at bytes 16 and 20). */
function pngSize(b: Uint8Array): ImageSize | undefined {
  if (b.length < 24 || !PNG_SIGNATURE.every((byte, i) => b[i] === byte)) return undefined;
  if (String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!) !== 'IHDR') return undefined;
  return { width: u32(b, 16), height: u32(b, 20) };
}

/**
 * JPEG: walk the marker segments to the first start-of-frame (SOF0–SOF15 but DHT C4, JPG C8 and DAC CC), which holds
 * height then width. Segments before it (EXIF, thumbnails, tables) are skipped by their lengths.
 */
function jpegSize(b: Uint8Array): ImageSize | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    // Fill bytes, and markers that stand alone (RSTn, TEM) have no length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = u16(b, at + 2);
    if (length < 2) return undefined;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return at + 9 <= b.length ? { width: u16(b, at + 7), height: u16(b, at + 5) } : undefined;
    if (marker === 0xda || marker === 0xd9) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/** The size a PNG or JPEG declares, or undefined for other bytes or a header cut short. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const size = pngSize(bytes) ?? jpegSize(bytes);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

/**
 * Why an image is refused by its size ('The image is larger than 200 × 60 pixels.'), or undefined when it fits; a
 * bound left out does not limit.
 */
export function imageSizeProblem(bytes: Uint8Array, max: { width?: number; height?: number }): string | undefined {
  const size = imageSize(bytes);
  if (!size) return 'The image could not be read.';
  const { width = Infinity, height = Infinity } = max;
  if (size.width <= width && size.height <= height) return undefined;
  if (max.width !== undefined && max.height !== undefined) return `The image is larger than ${max.width} × ${max.height} pixels.`;
  return max.width !== undefined ? `The image is wider than ${max.width} pixels.` : `The image is taller than ${max.height} pixels.`;
}
