import { describe, expect, it } from 'vitest';
import { CLUSTER_NAME_MAX, isValidClusterName, validateClusterName } from '../../renderer/src/api/validation';

describe('cluster name rule (mirrors the server)', () => {
  it.each(['edge-paris-1', 'a', '0', 'a.b-c', 'prod.eu-west.3', 'x'.repeat(CLUSTER_NAME_MAX)])('accepts %s', (name) => {
    expect(validateClusterName(name)).toBeNull();
    expect(isValidClusterName(name)).toBe(true);
  });

  it.each([
    ['', 'required'],
    ['x'.repeat(CLUSTER_NAME_MAX + 1), 'too_long'],
    ['Edge', 'uppercase'],
    ['EDGE-1', 'uppercase'],
    ['Bad_Name', 'invalid_chars'],
    ['bad name', 'invalid_chars'],
    ['café', 'invalid_chars'],
    ['-edge', 'edge'],
    ['edge-', 'edge'],
    ['.edge', 'edge'],
    ['edge.', 'edge'],
    ['-', 'edge'],
  ])('refuses %j (%s)', (name, problem) => {
    expect(validateClusterName(name)).toBe(problem);
  });
});
