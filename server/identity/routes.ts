import type { IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Settings } from '../config.ts';
import type { Db } from '../db/index.ts';
import { inviteByToken } from './invitations.ts';
import { sendEmail } from '../notify/outbox.ts';
import { accountExistsEmail, confirmSignUpEmail, failedSignInsEmail, passwordResetEmail } from '../notify/messages.ts';
import {
  consumeLinkToken,
  createLinkToken,
  createLocalUser,
  normalizeEmail,
  peekLinkToken,
  recordResetRequest,
  recordSignUp,
  recordSignUpRequest,
  resetRequestAllowed,
  RESET_MINUTES,
  setPassword,
  signIn,
  signUpAllowed,
  signUpMailAllowed,
  SIGN_UP_HOURS,
  userByEmail,
  userById,
  SIGN_IN_LIMITS,
  type PendingSignUp,
  type UserRow,
} from './accounts.ts';
import { MIN_PASSWORD_LENGTH, hashPassword } from './password.ts';
import { confirmPage, forgotPage, loginPage, messagePage, resetPage, signUpPage, type Page, type SignUpValues } from './pages.ts';
import { HAND_OVER_PATH, MOUNT, passwordLink, signUpLink } from './paths.ts';
import { newToken } from './secrets.ts';
import personName from '../../schemas/entities/person-name.json';
import { firstPartyGrant } from './provider.ts';
import { endSession, revokeAccount } from './adapter.ts';
import type { ClientNetwork } from '../http/addresses.ts';
import { clientNetwork } from '../http/client.ts';
import { HttpProblem } from '../http/problem.ts';
import { users } from '../db/schema.ts';
import { serverBrand, type ServerBrand } from '../descriptors/brands.ts';
import { eq } from 'drizzle-orm';

type Form = Record<string, string>;

/** A name as the API takes one (schemas/entities/person-name.json): letters of any alphabet, spaces, hyphens, apostrophes. */
const NAME = new RegExp(personName.pattern, 'u');
const nameError = (name: string) => (NAME.test(name) && [...name].length <= 25 ? undefined : 'Names can only contain alphabets, spaces, hyphens and apostrophes (1 to 25).');
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;
/** Shown for every failed sign-in, whether the e-mail exists or not. */
const WRONG = 'The email or password is not correct.';
const waitMessage = (seconds: number) =>
  `Too many failed sign-ins. Wait ${seconds < 120 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`} and try again, or reset your password.`;

/**
 * The browser's device cookie: a random id the sign-in pages give a browser once, so that the account's owner, signing
 * in from a browser they used before, is never slowed by someone else's failures (decision 0252).
 */
const DEVICE_COOKIE = 'pos_device';
const deviceOf = (request: FastifyRequest): string | undefined => /(?:^|;\s*)pos_device=([A-Za-z0-9_-]{43})(?:;|$)/.exec(request.headers.cookie ?? '')?.[1];
const deviceCookie = (value: string) => `${DEVICE_COOKIE}=${value}; Path=${MOUNT}; Max-Age=${400 * 24 * 3600}; HttpOnly; Secure; SameSite=Lax`;

function sendPage(reply: FastifyReply, page: Page): FastifyReply {
  return reply
    .code(page.status)
    .header('content-security-policy', page.csp)
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(page.html);
}

/** The shape of an e-mailed link's token (newToken), checked before the database is asked. */
const LINK_TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

const text = (form: Form, name: string): string => (typeof form[name] === 'string' ? form[name]!.trim() : '');

function passwordErrors(password: string, confirm: string): Record<string, string> {
  const errors: Record<string, string> = {};
  if ([...password.normalize('NFKC')].length < MIN_PASSWORD_LENGTH) errors.password = `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  else if (password.length > 200) errors.password = 'The password must be at most 200 characters long.';
  if (password !== confirm) errors.confirm = 'The passwords do not match.';
  return errors;
}

export interface IdentityRoutesOptions {
  provider: Provider;
  /** The API audience (resource) the first-party grant covers. */
  audience: string;
  settings: Pick<Settings, 'publicUrl'>;
  db: Db;
  /** The staff access token's user (the API's own check). */
  staffToken(token: string): Promise<{ userId: string }>;
}

/**
 * Mounts the built-in OpenID provider under /oidc and serves its pages: sign-in, sign-up, forgotten
 * password (by an e-mailed link through the outbox) and the reset page. The provider's own endpoints
 * (discovery, authorize, token, jwks, end-session, userinfo) are oidc-provider's, reached through a
 * catch-all route that hands it the raw request.
 */
export async function identityRoutes(app: FastifyInstance, options: IdentityRoutesOptions): Promise<void> {
  const { provider, settings, db } = options;
  const portalSignIn = `${settings.publicUrl}/#/auth`;
  const interactionPath = (uid: string, step = '') => `${MOUNT}/interaction/${encodeURIComponent(uid)}${step ? `/${step}` : ''}`;

  // ---- oidc-provider itself --------------------------------------------------------------------
  await app.register(async (scope) => {
    // oidc-provider reads request bodies itself: leave the stream untouched.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const callback = provider.callback();
    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = raw.url!.slice(MOUNT.length) || '/';
      reply.raw.setHeader('x-content-type-options', 'nosniff');
      reply.raw.setHeader('referrer-policy', 'no-referrer');
      await callback(raw, reply.raw);
    };
    scope.all(MOUNT, handle);
    scope.all(`${MOUNT}/*`, handle);
  });

  // ---- hand-over on the office's device (docs/decisions/0232) -------------------------------------
  app.post(HAND_OVER_PATH, async (request, reply) => {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const userId = token ? await options.staffToken(token).then(({ userId }) => userId, () => undefined) : undefined;
    if (!userId) throw new HttpProblem(401, 'The access token is not valid or has expired.');
    // The session this browser's cookie names, when it reaches this host; else (a brand's own host, where the
    // provider's cookie does not come) every session of the member, so that none signs staff in unasked.
    const session = await provider.Session.get({ req: request.raw, res: reply.raw } as unknown as Parameters<typeof provider.Session.get>[0]);
    const ended = session.accountId === userId && (await endSession(db, session.jti, userId));
    if (!ended) await revokeAccount(db, userId);
    return reply.code(204).header('cache-control', 'no-store').send();
  });

  // ---- the pages ----------------------------------------------------------------------------------
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => {
      const parsed = parseQuery(String(body));
      done(null, Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, Array.isArray(v) ? (v[0] ?? '') : (v ?? '')])));
    });
    // Reset tokens travel in the URL: keep them out of the request log.
    const quiet = { logLevel: 'warn' as const };

    /**
     * The brand the web app asked for (MSAL's extraQueryParameters), else the brand of the host the web app runs on
     * (the authorization request's redirect_uri: a brand's own host signs in at PUBLIC_URL), else the one of this host.
     */
    const brandOf = (request: FastifyRequest, asked?: unknown, params?: { redirect_uri?: unknown }) => {
      const appHost = typeof params?.redirect_uri === 'string' ? URL.parse(params.redirect_uri)?.host : undefined;
      const ofApp = appHost ? serverBrand(appHost, asked) : undefined;
      return ofApp && ofApp.id !== serverBrand(undefined).id ? ofApp : serverBrand(request.host, asked);
    };

    async function details(request: FastifyRequest, reply: FastifyReply) {
      try {
        return await provider.interactionDetails(request.raw, reply.raw);
      } catch {
        sendPage(reply, messagePage(brandOf(request), { title: 'Sign-in expired', text: 'This sign-in page has expired. Start again from the portal.', kind: 'error', status: 400, link: { label: 'Back to the portal', url: portalSignIn } }));
        return undefined;
      }
    }

    async function finishLogin(request: FastifyRequest, reply: FastifyReply, accountId: string) {
      const returnTo = await provider.interactionResult(request.raw, reply.raw, { login: { accountId, amr: ['pwd'], remember: true } }, { mergeWithLastSubmission: false });
      await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, accountId));
      return reply.redirect(returnTo, 303);
    }

    /** An invitation named by the authorization request (MSAL's extraQueryParameters), if still good. */
    async function invitation(params: Record<string, unknown>) {
      const token = typeof params.invite === 'string' ? params.invite : undefined;
      if (!token || !/^[0-9a-f-]{36}$/i.test(token)) return undefined;
      const invite = await inviteByToken(db, token);
      return invite && !invite.isExpired && !invite.isProcessed ? invite : undefined;
    }

    scope.get<{ Params: { uid: string } }>(`${MOUNT}/interaction/:uid`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      const { uid, params, prompt } = interaction;
      if (prompt.name !== 'login') {
        // The consent step of the first-party web client is granted at once (provider.ts).
        const accountId = interaction.session?.accountId;
        if (prompt.name !== 'consent' || !accountId) {
          const returnTo = await provider.interactionResult(request.raw, reply.raw, { error: 'access_denied', error_description: 'This request cannot be completed.' }, { mergeWithLastSubmission: false });
          return reply.redirect(returnTo, 303);
        }
        const grantId = await firstPartyGrant(provider, { accountId, clientId: String(params.client_id), grantId: interaction.grantId, audience: options.audience });
        const returnTo = await provider.interactionResult(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
        return reply.redirect(returnTo, 303);
      }
      const invite = await invitation(params);
      if ((invite && !invite.user?.hasPassword) || params.screen === 'signup') return reply.redirect(interactionPath(uid, 'signup'), 303);
      const hint = typeof params.login_hint === 'string' ? params.login_hint : invite?.invite.email;
      if (!deviceOf(request)) reply.header('set-cookie', deviceCookie(newToken()));
      return sendPage(reply, loginPage(brand, {
        action: interactionPath(uid, 'login'),
        signUpUrl: interactionPath(uid, 'signup'),
        forgotUrl: interactionPath(uid, 'forgot'),
        email: hint,
        notice: invite ? `Sign in to accept your invitation to ${invite.officeName}.` : undefined,
      }));
    });

    scope.post<{ Params: { uid: string }; Body: Form }>(`${MOUNT}/interaction/:uid/login`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      const form = request.body ?? {};
      const email = text(form, 'email');
      const tellOwner = async (user: UserRow, failures: number) => {
        await sendEmail(db, failedSignInsEmail({ to: user.email, firstName: user.firstName, failures, minutes: SIGN_IN_LIMITS.windowMinutes, url: portalSignIn, brandName: brand.name }));
      };
      const result = await signIn(db, { email, password: typeof form.password === 'string' ? form.password : '', ip: clientNetwork(request), device: deviceOf(request) }, tellOwner);
      if (result.ok) return finishLogin(request, reply, result.user.id);
      const page = loginPage(brand, {
        action: interactionPath(interaction.uid, 'login'),
        signUpUrl: interactionPath(interaction.uid, 'signup'),
        forgotUrl: interactionPath(interaction.uid, 'forgot'),
        email,
        error: result.reason === 'throttled' ? waitMessage(result.retryAfterSeconds) : WRONG,
      });
      if (result.reason !== 'throttled') return sendPage(reply, page);
      return sendPage(reply.header('retry-after', String(result.retryAfterSeconds)), { ...page, status: 429 });
    });

    scope.get<{ Params: { uid: string } }>(`${MOUNT}/interaction/:uid/signup`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      const invite = await invitation(interaction.params);
      return sendPage(reply, signUpPage(brand, {
        action: interactionPath(interaction.uid, 'signup'),
        signInUrl: interactionPath(interaction.uid),
        values: invite?.user ? { firstName: invite.user.firstName, lastName: invite.user.lastName } : {},
        errors: {},
        invitedEmail: invite?.invite.email,
        officeName: invite?.officeName,
      }));
    });

    scope.post<{ Params: { uid: string }; Body: Form }>(`${MOUNT}/interaction/:uid/signup`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      const form = request.body ?? {};
      const invite = await invitation(interaction.params);
      const values: SignUpValues = { firstName: text(form, 'firstName'), lastName: text(form, 'lastName'), email: invite?.invite.email ?? normalizeEmail(text(form, 'email')) };
      const password = typeof form.password === 'string' ? form.password : '';
      const errors: Record<string, string> = { ...passwordErrors(password, typeof form.confirm === 'string' ? form.confirm : '') };
      for (const field of ['firstName', 'lastName'] as const) {
        const error = nameError(values[field]!);
        if (error) errors[field] = error;
      }
      if (!EMAIL.test(values.email!) || values.email!.length > 100) errors.email = 'This field must be a valid e-mail address.';
      const render = (error?: string) =>
        sendPage(reply, signUpPage(brand, {
          action: interactionPath(interaction.uid, 'signup'),
          signInUrl: interactionPath(interaction.uid),
          values,
          errors,
          error,
          invitedEmail: invite?.invite.email,
          officeName: invite?.officeName,
        }));
      if (Object.keys(errors).length) return render();
      if (!(await signUpAllowed(db, clientNetwork(request)))) return render('Too many new accounts from this address. Try again later.');
      // Hashed whether or not an account will be made, so that the answer takes as long either way.
      const pending = { email: values.email!, firstName: values.firstName!, lastName: values.lastName!, passwordHash: await hashPassword(password) };
      const existing = await userByEmail(db, pending.email);
      if (invite) {
        // The invitation e-mail proves the address: the invited person sets the first password and is signed in.
        if (existing && !existing.passwordHash && existing.email === invite.invite.email) {
          await db.update(users).set({ firstName: pending.firstName, lastName: pending.lastName, passwordHash: pending.passwordHash, provider: 'local', updatedAt: new Date() }).where(eq(users.id, existing.id));
          return finishLogin(request, reply, existing.id);
        }
        if (existing) return render(`An account already exists for ${pending.email}. Sign in, or use 'Forgot your password?' to choose a new password.`);
        const created = await createAccount(pending, clientNetwork(request));
        return created ? finishLogin(request, reply, created.id) : render(`An account already exists for ${pending.email}.`);
      }
      // Anyone else confirms the e-mail first, and learns nothing here of whether it has an account (decision 0251):
      // the mailbox's owner is told which it is.
      const mailAllowed = await signUpMailAllowed(db, pending.email);
      await recordSignUpRequest(db, pending.email, clientNetwork(request));
      if (!mailAllowed) request.log.warn({ security: 'sign-up-throttled' }, 'sign-up e-mails throttled');
      else if (existing) await sendEmail(db, accountExistsEmail({ to: existing.email, firstName: existing.firstName, url: portalSignIn, brandName: brand.name }));
      else {
        const token = await createLinkToken(db, 'signUp', pending, SIGN_UP_HOURS * 3600);
        await sendEmail(db, confirmSignUpEmail({ to: pending.email, firstName: pending.firstName, url: signUpLink(settings.publicUrl, token, brand.id), hours: SIGN_UP_HOURS, brandName: brand.name }));
      }
      return sendPage(reply, messagePage(brand, {
        title: 'Check your e-mail',
        text: `We sent a message to ${pending.email}. Open the link in it to finish creating your account; it expires in ${SIGN_UP_HOURS} hours.`,
        link: { label: 'Back to sign in', url: interactionPath(interaction.uid) },
      }));
    });

    /** Makes the account of a sign-up; undefined when the e-mail was taken meanwhile (the unique index refuses a second). */
    async function createAccount(pending: PendingSignUp, ip: ClientNetwork): Promise<UserRow | undefined> {
      try {
        const user = await createLocalUser(db, pending);
        await recordSignUp(db, user, ip);
        return user;
      } catch (error) {
        if ((error as { code?: string }).code === '23505' || String(error).includes('users_email_key')) return undefined;
        throw error;
      }
    }

    scope.get<{ Params: { uid: string } }>(`${MOUNT}/interaction/:uid/forgot`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      return sendPage(reply, forgotPage(brand, { action: interactionPath(interaction.uid, 'forgot'), signInUrl: interactionPath(interaction.uid) }));
    });

    scope.post<{ Params: { uid: string }; Body: Form }>(`${MOUNT}/interaction/:uid/forgot`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      const email = normalizeEmail(text(request.body ?? {}, 'email'));
      const page = { action: interactionPath(interaction.uid, 'forgot'), signInUrl: interactionPath(interaction.uid), email };
      if (!EMAIL.test(email)) return sendPage(reply, forgotPage(brand, { ...page, error: 'This field must be a valid e-mail address.' }));
      // The same answer whether or not the account exists; limits are silent for the same reason.
      if (await resetRequestAllowed(db, email, clientNetwork(request))) {
        await recordResetRequest(db, email, clientNetwork(request));
        const user = await userByEmail(db, email);
        if (user && !user.isDisabled && user.provider === 'local') {
          const token = await createLinkToken(db, 'password', { userId: user.id }, RESET_MINUTES * 60);
          const url = passwordLink(settings.publicUrl, token, brand.id);
          await sendEmail(db, passwordResetEmail({ to: user.email, firstName: user.firstName, url, minutes: RESET_MINUTES, brandName: brand.name }));
        }
      } else {
        request.log.warn({ security: 'password-reset-throttled' }, 'password reset requests throttled');
      }
      return sendPage(reply, forgotPage(brand, { ...page, sent: true }));
    });

    scope.get<{ Params: { uid: string } }>(`${MOUNT}/interaction/:uid/abort`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const returnTo = await provider.interactionResult(request.raw, reply.raw, { error: 'access_denied', error_description: 'The user cancelled the sign-in.' }, { mergeWithLastSubmission: false });
      return reply.redirect(returnTo, 303);
    });

    const expired = (brand: ServerBrand) =>
      messagePage(brand, { title: 'Link expired', text: 'This link has expired or was already used. Ask for a new one from the sign-in page.', kind: 'error', status: 400, link: { label: 'Go to sign in', url: portalSignIn } });

    scope.get<{ Querystring: { token?: string; brand?: string } }>(`${MOUNT}/account/reset`, quiet, async (request, reply) => {
      const token = request.query.token ?? '';
      const brand = brandOf(request, request.query.brand);
      const userId = LINK_TOKEN.test(token) ? (await peekLinkToken(db, 'password', token))?.userId : undefined;
      if (!userId) return sendPage(reply, expired(brand));
      const user = await userById(db, userId);
      return sendPage(reply, resetPage(brand, { action: `${MOUNT}/account/reset`, token, errors: {}, heading: user?.passwordHash ? 'Choose a new password' : 'Choose your password' }));
    });

    scope.post<{ Body: Form }>(`${MOUNT}/account/reset`, quiet, async (request, reply) => {
      const form = request.body ?? {};
      const token = text(form, 'token');
      const brand = brandOf(request, form.brand);
      const password = typeof form.password === 'string' ? form.password : '';
      const errors = passwordErrors(password, typeof form.confirm === 'string' ? form.confirm : '');
      if (!LINK_TOKEN.test(token) || !(await peekLinkToken(db, 'password', token))) return sendPage(reply, expired(brand));
      if (Object.keys(errors).length) return sendPage(reply, resetPage(brand, { action: `${MOUNT}/account/reset`, token, errors }));
      const userId = (await consumeLinkToken(db, 'password', token))?.userId;
      if (!userId) return sendPage(reply, expired(brand));
      await setPassword(db, userId, password);
      return sendPage(reply, messagePage(brand, { title: 'Password saved', text: 'Your password was saved. Sign in with it now.', link: { label: 'Sign in', url: portalSignIn } }));
    });

    // A sign-up's e-mailed link: the page asks for a click (a mail scanner that opens links must not use it up).
    scope.get<{ Querystring: { token?: string; brand?: string } }>(`${MOUNT}/account/confirm`, quiet, async (request, reply) => {
      const token = request.query.token ?? '';
      const brand = brandOf(request, request.query.brand);
      const pending = LINK_TOKEN.test(token) ? await peekLinkToken(db, 'signUp', token) : undefined;
      if (!pending) return sendPage(reply, expired(brand));
      return sendPage(reply, confirmPage(brand, { action: `${MOUNT}/account/confirm`, token, email: pending.email }));
    });

    scope.post<{ Body: Form }>(`${MOUNT}/account/confirm`, quiet, async (request, reply) => {
      const form = request.body ?? {};
      const token = text(form, 'token');
      const brand = brandOf(request, form.brand);
      const pending = LINK_TOKEN.test(token) ? await consumeLinkToken(db, 'signUp', token) : undefined;
      if (!pending) return sendPage(reply, expired(brand));
      const signIn = { label: 'Sign in', url: portalSignIn };
      if (!(await createAccount(pending, clientNetwork(request)))) {
        return sendPage(reply, messagePage(brand, { title: 'You have an account', text: `An account already exists for ${pending.email}. Sign in, or use 'Forgot your password?' to choose a new password.`, link: signIn }));
      }
      return sendPage(reply, messagePage(brand, { title: 'Your account is ready', text: 'Sign in with your e-mail and password, then enroll your office.', link: signIn }));
    });
  });
}
