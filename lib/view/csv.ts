/**
 * CSV for spreadsheets people will open: RFC 4180 quoting, CRLF line ends, and cells that a
 * spreadsheet would run as a formula (starting with = + - @, tab or CR) prefixed with `'` so a
 * hostile token name like `=HYPERLINK(...)` stays text.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(cells: (string | number | boolean | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
