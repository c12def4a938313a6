import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { type ChainState, chainStateText } from '../../../shared/domain/audit-search';
import type { StoredAuditEvent } from '../../ports/audit-log';

/** What every page of an export prints above its rows. */
export interface PdfHeading {
  title: string;
  filter: string;
  generatedAt: string;
  exportedBy: string;
  digest: string;
  recipe: string;
}

const [W, H] = [841.89, 595.28]; // A4 landscape
const M = 36;
const SIZE = 7.5;
const LEAD = 9.5;
const COLS = [
  { title: 'Time (UTC)', width: 112 },
  { title: 'Subject / event', width: 200 },
  { title: 'Actor (role)', width: 140 },
  { title: 'Action', width: 115 },
  { title: 'Meaning', width: W - 2 * M - 567 },
] as const;
const GREY = rgb(0.35, 0.35, 0.35);

/**
 * The standard fonts write WinAnsi only: any other character is printed as '?'. The CSV of the same view
 * keeps every character; the PDF is its readable copy.
 */
const printable = (s: string): string => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

/** Lines of at most `width` points: breaks at a space where one fits, else inside the word (hashes, JSON). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  for (const para of printable(text).split('\n')) {
    let rest = para;
    while (font.widthOfTextAtSize(rest, size) > width) {
      let n = rest.length;
      while (n > 1 && font.widthOfTextAtSize(rest.slice(0, n), size) > width) n -= 1;
      const space = rest.lastIndexOf(' ', n);
      const cut = space > n / 2 ? space : n;
      out.push(rest.slice(0, cut));
      rest = rest.slice(cut).replace(/^ /, '');
    }
    out.push(rest);
  }
  return out;
}

/**
 * A human-readable copy of exported audit events (21 CFR 11.10(b)): every page carries the title, the
 * filter, the generation time, who exported, the export digest and how to check it, and "Page x of y";
 * each event gets its time, subject and number, actor and role, action, meaning and details in full; the
 * last section lists each subject's chain state and head hash.
 */
export async function auditPdf(
  heading: PdfHeading,
  events: readonly StoredAuditEvent[],
  chains: readonly ChainState[],
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(printable(heading.title));
  doc.setCreator('Firmware Release Portal');
  doc.setCreationDate(new Date(heading.generatedAt));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;
  const text = (s: string, x: number, at: number, f = font, size = SIZE, color = rgb(0, 0, 0)) =>
    page.drawText(printable(s), { x, y: at, size, font: f, color });

  const headingLines = [
    `Filter: ${heading.filter}`,
    `Generated ${heading.generatedAt} (UTC) by ${heading.exportedBy}`,
    `Export digest (SHA-256): ${heading.digest}`,
    ...wrap(`How to check: ${heading.recipe}`, font, 7, W - 2 * M),
  ];
  const newPage = (columns: boolean) => {
    page = doc.addPage([W, H]);
    pages.push(page);
    y = H - M;
    text(heading.title, M, y - 10, bold, 13);
    y -= 26;
    for (const l of headingLines) {
      text(l, M, y, font, 7, GREY);
      y -= 9;
    }
    y -= 6;
    if (columns) {
      let x = M;
      for (const c of COLS) {
        text(c.title, x, y, bold);
        x += c.width;
      }
      y -= 4;
      page.drawLine({ start: { x: M, y }, end: { x: W - M, y }, thickness: 0.5, color: GREY });
      y -= LEAD;
    }
  };
  const room = (lines: number, columns: boolean) => {
    if (y - lines * LEAD < M + 14) newPage(columns);
  };

  newPage(true);
  if (events.length === 0) text('No event matches this filter.', M, y);
  for (const e of events) {
    const chain = chains.find((c) => c.subject === e.subject);
    const cells = [
      [e.at],
      [e.subject, `event ${e.seq}${chain ? `, ${chainStateText(chain)}` : ''}`],
      [`${e.actorName} (${e.actorRole})`, e.actorId],
      [e.action],
      [e.meaning],
    ].map((lines, i) => lines.flatMap((l) => wrap(l, font, SIZE, (COLS[i]?.width ?? 100) - 6)));
    const details = e.details
      ? wrap(`Details: ${JSON.stringify(e.details)}`, font, SIZE - 0.5, W - 2 * M - 112)
      : [];
    const hash = `Hash ${e.hash}  (previous ${e.prevHash})`;
    const rows = Math.max(...cells.map((c) => c.length));
    room(rows + details.length + 1, true);
    let x = M;
    cells.forEach((c, i) => {
      c.forEach((l, j) => {
        text(l, x, y - j * LEAD, font, SIZE, j > 0 && i !== 4 ? GREY : rgb(0, 0, 0));
      });
      x += COLS[i]?.width ?? 0;
    });
    y -= rows * LEAD;
    for (const l of details) {
      text(l, M + 112, y, font, SIZE - 0.5, GREY);
      y -= LEAD - 1;
    }
    text(hash, M + 112, y, font, 6.5, GREY);
    y -= LEAD;
    page.drawLine({ start: { x: M, y: y + 5 }, end: { x: W - M, y: y + 5 }, thickness: 0.2, color: GREY });
  }

  room(chains.length + 3, false);
  y -= 6;
  text('Chains of the subjects in this export', M, y, bold, 9);
  y -= LEAD + 2;
  for (const c of chains) {
    room(1, false);
    text(`${c.subject}: ${chainStateText(c)}; ${c.lastSeq} events; head hash ${c.headHash ?? 'none'}`, M, y);
    y -= LEAD;
  }

  pages.forEach((p, i) => {
    p.drawText(`Page ${i + 1} of ${pages.length}`, { x: W - M - 60, y: M - 14, size: 8, font });
    p.drawText(printable(`${heading.title} - digest ${heading.digest}`), {
      x: M,
      y: M - 14,
      size: 7,
      font,
      color: GREY,
    });
  });
  return doc.save();
}
