/**
 * The end of a switch that handles every member of a union: the compiler refuses the call
 * when a member is left out, so adding a route (or any other case) points at every switch
 * that has to say what it does with it.
 */
export function unreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
