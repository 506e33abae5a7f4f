import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/** Small layout helpers over pdf-lib's standard fonts (WinAnsi: no font file to ship or subset). */

export const PAGE = { width: 612, height: 792, margin: 54 } as const;

/** What the WinAnsi standard fonts draw: ASCII, Latin-1 (á, é, ñ, ¿…) and a few typographic marks. */
const WIN_ANSI_CHARS = '\\n\\x20-\\x7e\\u00a0-\\u00ff\\u2013\\u2014\\u2018\\u2019\\u201c\\u201d\\u2022\\u2026\\u20ac';
const WIN_ANSI = new RegExp(`[${WIN_ANSI_CHARS}]`);
const NOT_WIN_ANSI = new RegExp(`[^${WIN_ANSI_CHARS}]`, 'g');

/**
 * Keeps only what the WinAnsi standard fonts can draw: Spanish keeps its accents and ñ; other accented letters lose
 * their accent, and anything else becomes close ASCII or '?'.
 */
export function winAnsi(text: string): string {
  return [...text.normalize('NFC')]
    .map((char) => (WIN_ANSI.test(char) ? char : char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')))
    .join('')
    .replace(/[\u2010-\u2012]/g, '-')
    .replace(/[\u2264]/g, '<=')
    .replace(/[\u2265]/g, '>=')
    .replace(NOT_WIN_ANSI, '?');
}

export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of winAnsi(text).split('\n')) {
    const words = paragraph.split(/\s+/).filter(Boolean);
    if (words.length === 0) {
      lines.push('');
      continue;
    }
    let line = '';
    for (const word of words) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width || !line) {
        line = candidate;
      } else {
        lines.push(line);
        line = word;
      }
      // A single word wider than the line (a hash): cut it.
      while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut -= 1;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line);
  }
  return lines;
}

/** A top-down writer that starts a new page when the current one is full. */
export class Writer {
  page!: PDFPage;
  y = 0;
  readonly width = PAGE.width - 2 * PAGE.margin;

  private constructor(readonly doc: PDFDocument, readonly regular: PDFFont, readonly bold: PDFFont, readonly mono: PDFFont) {}

  static async create(doc: PDFDocument): Promise<Writer> {
    const writer = new Writer(doc, await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold), await doc.embedFont(StandardFonts.Courier));
    writer.newPage();
    return writer;
  }

  newPage(): void {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  ensure(height: number): void {
    if (this.y - height < PAGE.margin) this.newPage();
  }

  text(text: string, options: { size?: number; font?: 'regular' | 'bold' | 'mono'; gap?: number; indent?: number; color?: [number, number, number] } = {}): void {
    const size = options.size ?? 10;
    const font = options.font === 'bold' ? this.bold : options.font === 'mono' ? this.mono : this.regular;
    const indent = options.indent ?? 0;
    const leading = size * 1.35;
    for (const line of wrap(text, font, size, this.width - indent)) {
      this.ensure(leading);
      this.y -= leading;
      if (line) this.page.drawText(line, { x: PAGE.margin + indent, y: this.y, size, font, color: rgb(...(options.color ?? [0.1, 0.1, 0.1])) });
    }
    this.y -= options.gap ?? 4;
  }

  heading(text: string, size = 12): void {
    this.ensure(size * 3);
    this.y -= 6;
    this.text(text, { size, font: 'bold', gap: 4 });
  }

  /** Label / value rows in two columns; `emphasis` sets the values in bold too (Reg Z §1026.17(a)(2)). */
  rows(rows: [string, string][], { size = 10, emphasis = false }: { size?: number; emphasis?: boolean } = {}): void {
    const valueFont = emphasis ? this.bold : this.regular;
    const labelWidth = 190;
    for (const [label, value] of rows) {
      const lines = wrap(value, valueFont, size, this.width - labelWidth);
      const leading = size * 1.35;
      this.ensure(leading * lines.length);
      this.y -= leading;
      this.page.drawText(winAnsi(label), { x: PAGE.margin, y: this.y, size, font: this.bold });
      lines.forEach((line, i) => {
        if (i > 0) this.y -= leading;
        this.page.drawText(line, { x: PAGE.margin + labelWidth, y: this.y, size, font: valueFont });
      });
    }
    this.y -= 4;
  }

  rule(): void {
    this.ensure(10);
    this.y -= 6;
    this.page.drawLine({ start: { x: PAGE.margin, y: this.y }, end: { x: PAGE.width - PAGE.margin, y: this.y }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
    this.y -= 4;
  }
}
