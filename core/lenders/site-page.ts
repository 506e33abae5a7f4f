import { escapeHtml } from '../html.ts';

/**
 * The page of a lender's own site, as the sandbox lenders' site (server/lenders/site.ts) and the lender service's
 * signing page (lender-service/signing-site.ts) show it: the lender's name at the top, no script, nothing from elsewhere.
 */

/**
 * Styles inline only, forms posted to the page's own site, never framed. A form whose answer sends the browser on to
 * another site (the signing page back to the portal) names that site: browsers hold the redirect to form-action too.
 */
export const sitePagePolicy = (formRedirectsTo: readonly string[] = []) =>
  `default-src 'none'; style-src 'unsafe-inline'; form-action ${["'self'", ...formRedirectsTo].join(' ')}; frame-ancestors 'none'; base-uri 'none'`;

/** `subtitle` and `body` are HTML, escaped by the caller. */
export function lenderSitePage(lenderName: string, title: string, subtitle: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} | ${escapeHtml(lenderName)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; color: #1a1a1a; }
header { background: #1d3b2a; color: #fff; padding: 1rem 1.5rem; }
header strong { font-size: 1.25rem; } header small { display: block; opacity: .85; }
main { max-width: 44rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.1rem; margin-top: 1.75rem; }
table { border-collapse: collapse; width: 100%; } th, td { border-bottom: 1px solid #ddd; padding: .5rem; text-align: left; }
.notice { background: #fff6dd; border: 1px solid #e8c44a; padding: .5rem 1rem; font-size: .9rem; }
.error { background: #fdecec; border: 1px solid #d33; padding: .5rem 1rem; }
form { display: flex; flex-direction: column; gap: .75rem; max-width: 28rem; }
label { display: flex; flex-direction: column; gap: .25rem; } label.check { flex-direction: row; gap: .5rem; align-items: flex-start; }
input[type=text] { padding: .45rem; font-size: 1rem; }
button, a.button { padding: .6rem 1.2rem; background: #1d6b45; color: #fff; border: 0; border-radius: 4px; font-size: 1rem; text-decoration: none; display: inline-block; cursor: pointer; }
button.secondary { background: #8a2d2d; }
</style>
</head>
<body>
<header><strong>${escapeHtml(lenderName)}</strong><small>${subtitle}</small></header>
<main>
${body}
</main>
</body>
</html>
`;
}
