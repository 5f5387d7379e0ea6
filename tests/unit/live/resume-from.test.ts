import { describe, expect, it } from 'vitest';
import { resumeFrom } from '@/lib/api/live';
import { LanternError } from '@/lib/errors';
import { COMPLETE } from '@/lib/view/live-protocol';

const req = (headers: Record<string, string> = {}) => new Request('http://lantern.test/api/live/wallets/x', { headers });

function refusal(f: () => unknown): { status: number; parameter?: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof LanternError) return { status: e.status, parameter: e.parameter };
    throw e;
  }
  throw new Error('not refused');
}

describe('where a stream resumes', () => {
  it('from Last-Event-ID (what EventSource sends back) before since, from now without either', () => {
    expect(resumeFrom(req({ 'Last-Event-ID': '3.120.h' }), '1.5.0')).toEqual({ epoch: 3, block: 120, index: COMPLETE });
    expect(resumeFrom(req(), '1.5.0')).toEqual({ epoch: 1, block: 5, index: 0 });
    expect(resumeFrom(req({ 'Last-Event-ID': '  ' }), '1.5.0')).toEqual({ epoch: 1, block: 5, index: 0 });
    expect(resumeFrom(req(), undefined)).toBeNull();
    expect(resumeFrom(req(), '')).toBeNull();
  });

  it('a malformed id is a 400 naming where it came from', () => {
    expect(refusal(() => resumeFrom(req({ 'Last-Event-ID': '3.120' }), '1.5.0'))).toEqual({ status: 400, parameter: 'Last-Event-ID' });
    expect(refusal(() => resumeFrom(req(), 'yesterday'))).toEqual({ status: 400, parameter: 'since' });
  });
});
