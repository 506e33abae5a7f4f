/**
 * Client addresses no other request of the run has come from. The API files share one server and one database
 * (tests/support/harness.ts), so per-address limits count every file's requests: two files counting up from one
 * literal address collided, and one file's passcodes were refused for another's. A single counter for the whole run
 * keeps them apart, in 100.64.0.0/10 (shared address space, which no test writes by hand).
 */
let issued = 0;

export function freshAddress(): string {
  issued += 1;
  return `100.${64 + ((issued >> 16) & 63)}.${(issued >> 8) & 255}.${issued & 255}`;
}

/** An IPv6 /64 no other request of the run has come from (in 2001:db8::/32, for documentation): its host `n`. */
export function freshNetwork(): (host: number) => string {
  issued += 1;
  const network = `2001:db8:${(issued >> 16).toString(16)}:${(issued & 0xffff).toString(16)}`;
  return (host) => `${network}::${host.toString(16)}`;
}
