import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '@/lib/view/csv';
import { addRecent, parseRecent } from '@/lib/browser/recent-searches';

describe('csv', () => {
  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
  });
  it('defuses spreadsheet formulas', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('0.5 ETH')).toBe('0.5 ETH');
  });
  it('ends lines with CRLF', () => {
    expect(csvLine(['a', 'b'])).toBe('a,b\r\n');
  });
});

describe('recent searches', () => {
  it('keeps newest first, one per query, at most 8', () => {
    let list = parseRecent(null);
    for (let i = 0; i < 10; i++) list = addRecent(list, `q${i}`, i);
    expect(list.map((r) => r.q)).toEqual(['q9', 'q8', 'q7', 'q6', 'q5', 'q4', 'q3', 'q2']);
    list = addRecent(list, 'Q5', 99);
    expect(list[0]).toEqual({ q: 'Q5', at: 99 });
    expect(list.filter((r) => r.q.toLowerCase() === 'q5')).toHaveLength(1);
  });
  it('survives junk in storage', () => {
    expect(parseRecent('not json')).toEqual([]);
    expect(parseRecent('[{"q":1},{"q":"ok","at":1}]')).toEqual([{ q: 'ok', at: 1 }]);
  });
});
