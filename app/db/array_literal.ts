/**
 * A PostgreSQL array literal of values that need no quoting (uuids, dates, integers), bound as
 * one parameter and cast in the SQL (`${arrayLiteral(ids)}::uuid[]`): the statement's text is
 * the same for any number of values, so it is compiled and prepared once (an `IN` list has a
 * text per length), and thousands of values are one parameter instead of thousands.
 */
export function arrayLiteral(values: ReadonlyArray<string | number>): string {
  return `{${values.join(",")}}`;
}
