/**
 * `make`, remembering what it made per key: for names asked for on every answer (a string
 * concatenated afresh is also hashed afresh by the map it indexes), or an object dear to build
 * (a number format per style). Only for keys drawn from a small fixed set (check ids, statuses,
 * failure codes, module-level styles): the memory holds one entry per key.
 */
export function remembered<K, V>(make: (key: K) => V): (key: K) => V {
  const made = new Map<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
}
