// The verdict rule of the specification: FAIL when a line failed, else BLOCKED when one could not run, else PASS.
import { describe, expect, test } from 'vitest';
import { statusCounts, verdictOf } from '../../../../main/core/reports/verdict';

describe('report verdict', () => {
  test('one FAIL makes the verdict FAIL, whatever else the report holds', () => {
    expect(verdictOf(['PASS', 'FAIL', 'PASS'])).toBe('FAIL');
    expect(verdictOf(['BLOCKED', 'FAIL'])).toBe('FAIL');
    expect(verdictOf(['FAIL', 'BLOCKED', 'PASS'])).toBe('FAIL');
  });

  test('without a FAIL, one BLOCKED makes the verdict BLOCKED', () => {
    expect(verdictOf(['PASS', 'BLOCKED', 'PASS'])).toBe('BLOCKED');
    expect(verdictOf(['BLOCKED'])).toBe('BLOCKED');
  });

  test('only PASS lines give PASS; an empty report proves nothing and is BLOCKED', () => {
    expect(verdictOf(['PASS', 'PASS'])).toBe('PASS');
    expect(verdictOf([])).toBe('BLOCKED');
  });

  test('a WARN line conforms: with PASS lines the verdict is PASS, and it never hides a FAIL or a BLOCKED', () => {
    expect(verdictOf(['PASS', 'WARN'])).toBe('PASS');
    expect(verdictOf(['WARN'])).toBe('PASS');
    expect(verdictOf(['WARN', 'BLOCKED'])).toBe('BLOCKED');
    expect(verdictOf(['WARN', 'FAIL'])).toBe('FAIL');
  });

  test('the counts per status add up to the lines', () => {
    expect(statusCounts(['PASS', 'FAIL', 'PASS', 'BLOCKED', 'WARN'])).toEqual({ PASS: 2, WARN: 1, FAIL: 1, BLOCKED: 1 });
  });
});
