import type { ServerBrand as Brand } from '../descriptors/brands.ts';
import { escapeHtml } from '../../core/html.ts';
import { MIN_PASSWORD_LENGTH } from './password.ts';

/**
 * The built-in provider's pages: server-rendered HTML in the brand of screens/brands/ (name, logo, palette,
 * footer), no script except the one-line auto-submit of the sign-out form, a strict Content-Security-Policy,
 * and every value escaped. Labels are real <label for> pairs so screen readers and Playwright find them.
 */

export interface Page {
  html: string;
  /** Content-Security-Policy for the page (with the nonce of its script, if any). */
  csp: string;
  status: number;
}

function layout(brand: Brand, title: string, body: string, options: { nonce?: string; status?: number } = {}): Page {
  const script = options.nonce ? `script-src 'nonce-${options.nonce}'` : "script-src 'none'";
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; ${script}; form-action 'self' https:; frame-ancestors 'none'; base-uri 'none'`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(title)} · ${escapeHtml(brand.name)}</title>
<style>
  :root { --primary: ${brand.palette.primary}; --error: ${brand.palette.error}; --success: ${brand.palette.success}; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; align-items: center; justify-content: center;
         font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; background: #f4f6fb; color: #1d2433; }
  header { display: flex; align-items: center; gap: .6rem; margin-bottom: 1.5rem; font-weight: 700; font-size: 1.25rem; color: var(--primary); }
  header .mark { width: 2rem; height: 2rem; border-radius: .5rem; background: var(--primary); color: #fff; display: grid; place-items: center; font-size: 1.1rem; }
  header img { max-width: 200px; max-height: 60px; }
  main { width: min(420px, calc(100vw - 2rem)); background: #fff; border-radius: 12px; box-shadow: 0 4px 24px rgba(29, 36, 51, .08); padding: 2rem; }
  h1 { font-size: 1.4rem; margin: 0 0 1.25rem; }
  label { display: block; font-weight: 600; font-size: .9rem; margin: 1rem 0 .35rem; }
  input { width: 100%; padding: .7rem .8rem; font-size: 1rem; border: 1px solid #c8cfdc; border-radius: 8px; }
  input:focus { outline: 2px solid var(--primary); outline-offset: 1px; border-color: var(--primary); }
  input[readonly] { background: #f0f2f7; }
  button { width: 100%; margin-top: 1.5rem; padding: .8rem; font-size: 1rem; font-weight: 600; border: 0; border-radius: 8px;
           background: var(--primary); color: #fff; cursor: pointer; }
  button:hover { filter: brightness(.95); }
  .hint { font-size: .8rem; color: #5b6577; margin-top: .3rem; }
  .error { color: var(--error); font-size: .9rem; margin: .3rem 0 0; }
  .alert { border-radius: 8px; padding: .75rem .9rem; font-size: .9rem; margin-bottom: 1rem; }
  .alert.error { background: #fdebe7; color: #a32810; margin: 0 0 1rem; }
  .alert.notice { background: #e8f9ed; color: #0f6b2a; }
  .links { display: flex; justify-content: space-between; gap: 1rem; margin-top: 1.25rem; font-size: .9rem; flex-wrap: wrap; }
  a { color: var(--primary); }
  footer { margin-top: 1.5rem; font-size: .8rem; color: #5b6577; display: flex; gap: 1rem; flex-wrap: wrap; justify-content: center; }
  footer a { color: inherit; }
</style>
</head>
<body>
<header>${logo(brand)}<span>${escapeHtml(brand.name)}</span></header>
<main>
${body}
</main>
<footer><span>© ${new Date().getFullYear()} ${escapeHtml(brand.footer.company)}</span><a href="${escapeHtml(brand.footer.termsUrl)}">Terms of Use</a><a href="${escapeHtml(brand.footer.privacyUrl)}">Privacy/Cookie Policy</a></footer>
</body>
</html>`;
  return { html, csp, status: options.status ?? 200 };
}

/** The brand's image (a data: URL, or a file of the web app's public/ folder), else a mark in its colour. */
function logo(brand: Brand): string {
  const src = brand.logo.src;
  if (!src) return '<span class="mark" aria-hidden="true">$</span>';
  const url = /^(data:|\/)/.test(src) ? src : `/${src}`;
  return `<img src="${escapeHtml(url)}" alt="${escapeHtml(brand.logo.text)}">`;
}

function alert(kind: 'error' | 'notice', text: string | undefined): string {
  if (!text) return '';
  return `<p class="alert ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${escapeHtml(text)}</p>`;
}

function field(
  name: string,
  label: string,
  options: { type?: string; value?: string; autocomplete?: string; error?: string; hint?: string; readonly?: boolean; autofocus?: boolean; maxLength?: number } = {},
): string {
  const id = `f-${name}`;
  const described = [options.hint ? `${id}-hint` : '', options.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return `<label for="${id}">${escapeHtml(label)}</label>
<input id="${id}" name="${name}" type="${options.type ?? 'text'}" value="${escapeHtml(options.value ?? '')}"${
    options.autocomplete ? ` autocomplete="${options.autocomplete}"` : ''
  }${options.readonly ? ' readonly' : ''}${options.autofocus ? ' autofocus' : ''}${options.maxLength ? ` maxlength="${options.maxLength}"` : ''} required${
    options.error ? ' aria-invalid="true"' : ''
  }${described ? ` aria-describedby="${described}"` : ''}>
${options.hint ? `<p class="hint" id="${id}-hint">${escapeHtml(options.hint)}</p>` : ''}${options.error ? `<p class="error" id="${id}-error">${escapeHtml(options.error)}</p>` : ''}`;
}

export function loginPage(brand: Brand, input: { action: string; signUpUrl: string; forgotUrl: string; email?: string; error?: string; notice?: string }): Page {
  return layout(
    brand,
    'Sign in',
    `<h1>Sign in</h1>
${alert('notice', input.notice)}${alert('error', input.error)}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${field('email', 'Email', { type: 'email', value: input.email, autocomplete: 'username', autofocus: !input.email, maxLength: 100 })}
${field('password', 'Password', { type: 'password', autocomplete: 'current-password', autofocus: Boolean(input.email) })}
<button type="submit">Sign in</button>
</form>
<div class="links"><a href="${escapeHtml(input.forgotUrl)}">Forgot your password?</a><span>No account? <a href="${escapeHtml(input.signUpUrl)}">Sign up</a></span></div>`,
    { status: input.error ? 400 : 200 },
  );
}

export interface SignUpValues {
  firstName?: string;
  lastName?: string;
  email?: string;
}

export function signUpPage(
  brand: Brand,
  input: { action: string; signInUrl: string; values: SignUpValues; errors: Record<string, string>; error?: string; invitedEmail?: string; officeName?: string },
): Page {
  const { values, errors } = input;
  const heading = input.invitedEmail ? 'Choose your password' : 'Create your account';
  const intro = input.officeName
    ? `<p>You were invited to ${escapeHtml(input.officeName)}. Create your account to accept.</p>`
    : input.invitedEmail
      ? ''
      : '<p>Sign up, then enroll your office.</p>';
  return layout(
    brand,
    heading,
    `<h1>${heading}</h1>
${intro}${alert('error', input.error)}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${field('firstName', 'First name', { value: values.firstName, autocomplete: 'given-name', error: errors.firstName, maxLength: 25, autofocus: true })}
${field('lastName', 'Last name', { value: values.lastName, autocomplete: 'family-name', error: errors.lastName, maxLength: 25 })}
${field('email', 'Email', { type: 'email', value: input.invitedEmail ?? values.email, autocomplete: 'username', error: errors.email, readonly: Boolean(input.invitedEmail), maxLength: 100 })}
${field('password', 'Password', { type: 'password', autocomplete: 'new-password', error: errors.password, hint: `At least ${MIN_PASSWORD_LENGTH} characters.` })}
${field('confirm', 'Confirm password', { type: 'password', autocomplete: 'new-password', error: errors.confirm })}
<button type="submit">Sign up</button>
</form>
<div class="links"><span>Already have an account? <a href="${escapeHtml(input.signInUrl)}">Sign in</a></span></div>`,
    { status: input.error || Object.keys(errors).length ? 400 : 200 },
  );
}

export function forgotPage(brand: Brand, input: { action: string; signInUrl: string; email?: string; sent?: boolean; error?: string }): Page {
  const body = input.sent
    ? `${alert('notice', `If an account exists for ${input.email ?? 'that e-mail'}, we sent it a link to choose a new password. It expires in an hour.`)}`
    : `<p>Enter the e-mail you sign in with. We will send you a link to choose a new password.</p>
${alert('error', input.error)}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${field('email', 'Email', { type: 'email', value: input.email, autocomplete: 'username', autofocus: true, maxLength: 100 })}
<button type="submit">Send the link</button>
</form>`;
  return layout(brand, 'Reset your password', `<h1>Reset your password</h1>\n${body}\n<div class="links"><a href="${escapeHtml(input.signInUrl)}">Back to sign in</a></div>`, {
    status: input.error ? 400 : 200,
  });
}

export function resetPage(brand: Brand, input: { action: string; token: string; errors: Record<string, string>; error?: string; heading?: string }): Page {
  const heading = input.heading ?? 'Choose a new password';
  return layout(
    brand,
    heading,
    `<h1>${escapeHtml(heading)}</h1>
${alert('error', input.error)}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<input type="hidden" name="token" value="${escapeHtml(input.token)}">
<input type="hidden" name="brand" value="${escapeHtml(brand.id)}">
${field('password', 'New password', { type: 'password', autocomplete: 'new-password', error: input.errors.password, hint: `At least ${MIN_PASSWORD_LENGTH} characters.`, autofocus: true })}
${field('confirm', 'Confirm password', { type: 'password', autocomplete: 'new-password', error: input.errors.confirm })}
<button type="submit">Save the password</button>
</form>`,
    { status: input.error || Object.keys(input.errors).length ? 400 : 200 },
  );
}

/** The page of a sign-up's e-mailed link: one click confirms the e-mail and makes the account. */
export function confirmPage(brand: Brand, input: { action: string; token: string; email: string }): Page {
  return layout(
    brand,
    'Finish creating your account',
    `<h1>Finish creating your account</h1>
<p>Confirm that ${escapeHtml(input.email)} is your e-mail to make your account.</p>
<form method="post" action="${escapeHtml(input.action)}" novalidate>
<input type="hidden" name="token" value="${escapeHtml(input.token)}">
<input type="hidden" name="brand" value="${escapeHtml(brand.id)}">
<button type="submit">Confirm and create my account</button>
</form>`,
  );
}

export function messagePage(brand: Brand, input: { title: string; text: string; link?: { label: string; url: string }; status?: number; kind?: 'error' | 'notice' }): Page {
  return layout(
    brand,
    input.title,
    `<h1>${escapeHtml(input.title)}</h1>
${alert(input.kind ?? 'notice', input.text)}
${input.link ? `<div class="links"><a href="${escapeHtml(input.link.url)}">${escapeHtml(input.link.label)}</a></div>` : ''}`,
    { status: input.status ?? 200 },
  );
}

/** The provider's sign-out confirmation, submitted at once: spec §4 makes sign-out a redirect flow without a question. */
export function logoutPage(brand: Brand, form: string, nonce: string): Page {
  const withYes = form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>');
  return layout(
    brand,
    'Signing out',
    `<h1>Signing out…</h1>
${withYes}
<noscript><button type="submit" form="op.logoutForm">Sign out</button></noscript>
<script nonce="${nonce}">document.getElementById('op.logoutForm').submit();</script>`,
    { nonce },
  );
}
