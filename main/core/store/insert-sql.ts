// The INSERT of a whole row by named parameters: its columns written once, the `@column` list made from them,
// so that a column added to one list cannot be forgotten in the other.

/** `INSERT INTO table (a, b) VALUES (@a, @b)` for `columns` "a, b". */
export function insertSql(table: string, columns: string): string {
  const names = columns.split(',').map((c) => c.trim());
  return `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((c) => `@${c}`).join(', ')})`;
}
