/**
 * `npm run check` — the build's descriptor check alone (meta-schemas, fragments, cross-references, languages,
 * palettes), in a few seconds: what an author runs after editing screens/, before `npm start` or a commit.
 */
import { checkDescriptors } from '../core/descriptors/screens.ts';

const report = await checkDescriptors();
for (const { file, from, to } of report.migrated) console.log(`${file}: format ${from}, read as format ${to} (npm run codegen rewrites it)`);
if (report.errors.length) {
  console.error(`${report.errors.length} problem(s) in screens/:\n  ${report.errors.join('\n  ')}`);
  process.exitCode = 1;
} else {
  console.log(`screens/: ${report.descriptors.length} descriptors, no problems`);
}
