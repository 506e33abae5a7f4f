import { describe, expect, it } from 'vitest';
import { imageSize, imageSizeProblem } from '../../core/image-size.ts';
import { jpegHeader, pngOf } from '../support/images.ts';

const jpegWith = (...segments: number[][]) => Uint8Array.from([0xff, 0xd8, ...segments.flat()]);
/** A start-of-frame segment of this marker declaring width × height. */
const frame = (marker: number, width: number, height: number) => [0xff, marker, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00];

describe('imageSize', () => {
  it('reads the size a PNG declares in its IHDR chunk', () => {
    expect(imageSize(pngOf(200, 60))).toEqual({ width: 200, height: 60 });
    expect(imageSize(pngOf(1, 301))).toEqual({ width: 1, height: 301 });
  });

  it("reads a JPEG's first start-of-frame, past the segments before it, baseline or progressive", () => {
    expect(imageSize(jpegHeader(640, 480))).toEqual({ width: 640, height: 480 });
    const exif = [0xff, 0xe1, 0x00, 0x08, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00];
    const table = [0xff, 0xc4, 0x00, 0x04, 0x00, 0x00];
    expect(imageSize(jpegWith(exif, table, frame(0xc2, 300, 100)))).toEqual({ width: 300, height: 100 });
    // Fill bytes before a marker are allowed.
    expect(imageSize(jpegWith([0xff, 0xff], frame(0xc0, 12, 34)))).toEqual({ width: 12, height: 34 });
  });

  it('answers nothing for other bytes, a header cut short, or no pixels', () => {
    expect(imageSize(Buffer.from('%PDF-1.4\n'))).toBeUndefined();
    expect(imageSize(pngOf(200, 60).subarray(0, 20))).toBeUndefined();
    expect(imageSize(jpegHeader(20, 20).subarray(0, 24))).toBeUndefined();
    expect(imageSize(jpegWith([0xff, 0xda, 0x00, 0x02], frame(0xc0, 12, 34)))).toBeUndefined();
    expect(imageSize(pngOf(0, 0))).toBeUndefined();
  });
});

describe('imageSizeProblem', () => {
  const logo = { width: 200, height: 60 };

  it('lets an image within both bounds through, at the bounds included', () => {
    expect(imageSizeProblem(pngOf(200, 60), logo)).toBeUndefined();
    expect(imageSizeProblem(jpegHeader(120, 40), logo)).toBeUndefined();
  });

  it('refuses an image past either bound, in words', () => {
    expect(imageSizeProblem(pngOf(201, 60), logo)).toBe('The image is larger than 200 × 60 pixels.');
    expect(imageSizeProblem(pngOf(200, 61), logo)).toBe('The image is larger than 200 × 60 pixels.');
    expect(imageSizeProblem(pngOf(201, 1), { width: 200 })).toBe('The image is wider than 200 pixels.');
    expect(imageSizeProblem(pngOf(1, 61), { height: 60 })).toBe('The image is taller than 60 pixels.');
    expect(imageSizeProblem(Buffer.from('not an image'), logo)).toBe('The image could not be read.');
  });
});
