/**
 * The last clause of every switch over a union: `default: return assertNever(x)`. A member
 * added to the union and not handled is a compile error at each such switch, where `x` is then not `never`;
 * a value outside the type at run time (data written by a newer build, a hand edit) throws instead of
 * being skipped. A `default` that stands for the other members hides a new member, so switches list them.
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
