import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BrandFileError, brandChooser, loadBrands } from '../../server/descriptors/brands.ts';
import { DescriptorFileError } from '../../core/descriptors/read.ts';

const BRANDS = join(import.meta.dirname, '..', '..', 'screens', 'brands');

function copyOfBrands(): string {
  const dir = mkdtempSync(join(tmpdir(), 'brands-'));
  cpSync(BRANDS, dir, { recursive: true });
  return dir;
}

describe('the brands the server renders with (server/descriptors/brands.ts)', () => {
  const choose = brandChooser(loadBrands());

  it('chooses as the web app does: the asked-for id, else the host name (port ignored), else the default', () => {
    expect(choose('portal.carefinancing.example:8443').id).toBe('care');
    expect(choose('localhost:3000', 'care')).toMatchObject({ id: 'care', name: 'CarePay Financing' });
    expect(choose('localhost:3000').id).toBe('smile');
    expect(choose('[::1]:3000').id).toBe('smile');
    expect(choose(undefined).id).toBe('smile');
    expect(choose('localhost', 'no-such-brand').id).toBe('smile');
    expect(choose('localhost', ['care']).id, 'a repeated query parameter is not a brand id').toBe('smile');
  });

  it('refuses a brand file that does not match its meta-schema, naming the file', () => {
    const dir = copyOfBrands();
    const file = join(dir, 'care.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { palette: unknown };
    doc.palette = { primary: 'blue', success: '#1ace48', error: '#ea3a18', purple: '#643ec2' };
    writeFileSync(file, JSON.stringify(doc));
    expect(() => loadBrands(dir)).toThrow(BrandFileError);
    expect(() => loadBrands(dir)).toThrow(/care\.json: does not match screens\/_meta\/brand\.schema\.json: #\/palette\/primary/);
    // A part it uses that is not written as a use is the file's fault too, named as every descriptor file's.
    writeFileSync(file, JSON.stringify({ ...doc, palette: { $use: 'demoPalette', primary: '#000000' } }));
    expect(() => loadBrands(dir)).toThrow(DescriptorFileError);
    expect(() => loadBrands(dir)).toThrow(/care\.json#\/palette: a use of 'demoPalette' has only "\$use" and "with"/);
  });

  it('needs exactly one default brand', () => {
    const dir = copyOfBrands();
    const file = join(dir, 'care.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), default: true }));
    expect(() => loadBrands(dir)).toThrow(/exactly one brand must be "default": true/);
  });
});
